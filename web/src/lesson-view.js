// @ts-check
// Builds the lesson page from a validated lesson record, in the published lesson's section
// order (see shared/seeds/*.publication.json `sections`). Pure DOM construction: no fetching,
// no engine calls except through the `onCheck` callback the caller passes.

import { ATLAS_EXPLORE_URL, ATLAS_LICENSES_URL, ATLAS_VERSION } from './config.js';
import { externalLink, h } from './dom.js';
import { equationBlock } from './equation.js';
import { quizForm } from './quiz.js';

/**
 * A lesson record as the engine validated it (src/lesson.cpp, the Atlas lesson contract): the
 * members the page shows; the optional ones may be absent, and members not listed are kept.
 * @typedef {object} Lesson
 * @property {string} id
 * @property {string} name
 * @property {string} role
 * @property {string} scale
 * @property {string} [branch]
 * @property {string} [subbranch]
 * @property {string} description
 * @property {string[]} mechanism
 * @property {{title: string, equation: string, explanation: string, assumptions: string}[]} science
 * @property {{year: number, title: string, significance: string, source: LessonSource}[]} [history]
 * @property {string} misconception
 * @property {string} tradeoff
 * @property {string} whyAI
 * @property {{label: string, value: string, context: string}[]} specs
 * @property {{name: string, direction: string, signal: string}[]} interfaces
 * @property {LessonCheck} check
 * @property {LessonCheck[]} [checks]
 * @property {string} evidenceNotes
 * @property {string} learningObjective
 * @property {string} engineeringExample
 * @property {string} [labScope]
 * @property {string} [scope]
 * @property {LessonSource[]} sources
 * @property {string[]} [prerequisites]
 * @property {string[]} [related]
 */
/** @typedef {{title: string, url: string}} LessonSource */
/** A published check: its question, options and the index of the right one. @typedef {{question: string, options: string[], answer: number}} LessonCheck */
/** @typedef {Record<string, {name: string, url: string}>} RelatedLessons */
/** An equation pack entry (equation.js equationBlock). @typedef {{latex?: string, variables?: unknown[], text?: string}} EquationEntry */
/** The engine's verdict on a published check's answer. @typedef {(checkIndex: number, choice: number) => ReturnType<import('./engine.js').Engine['checkAnswer']>} CheckCall */

/** @type {Record<string, string>} */
const DIRECTION_LABELS = { in: 'Input', out: 'Output' };

/**
 * The interface's direction as a badge: in and out in their colours, any other text (the
 * contract allows any string) in a neutral style, and no badge when there is no text.
 * @param {string} direction
 */
function directionBadge(direction) {
  if (!direction.trim()) return null;
  const known = Object.hasOwn(DIRECTION_LABELS, direction);
  return h('span', { class: `badge badge--${known ? direction : 'other'}` }, known ? DIRECTION_LABELS[direction] : direction);
}

/**
 * @param {string} id
 * @param {string} title
 * @param {...unknown} content
 */
function section(id, title, ...content) {
  const headingId = `${id}-heading`;
  return h(
    'section',
    { id, class: 'lesson-section', 'aria-labelledby': headingId },
    h('h2', { id: headingId }, title),
    ...content,
  );
}

/**
 * A paragraph that starts with a small label, e.g. "Assumptions".
 * @param {string} label
 * @param {string} text
 */
function labelled(label, text) {
  return h('p', { class: 'labelled' }, h('span', { class: 'label' }, label), ' ', text);
}

/** @param {Lesson} lesson */
function header(lesson) {
  const trail = [lesson.branch, lesson.subbranch].filter(Boolean).join(' › ');
  return h(
    'header',
    { class: 'lesson-header' },
    h('p', { class: 'eyebrow' }, trail ? `${trail} · ` : '', `Atlas v${ATLAS_VERSION}`),
    h('h1', {}, lesson.name),
    h('p', { class: 'lead' }, lesson.role),
    h(
      'p',
      { class: 'context' },
      lesson.scale ? [h('span', { class: 'label' }, 'Scale'), ' ', lesson.scale] : null,
      // The link to the lesson in the Atlas (hidden with header="none": inside the Atlas it
      // would point at the page it is on).
      h(
        'span',
        { class: 'self-link' },
        lesson.scale ? ' · ' : null,
        externalLink('Explore in Atlas', ATLAS_EXPLORE_URL + encodeURIComponent(lesson.id)),
      ),
    ),
  );
}

/** @param {Lesson} lesson */
function mechanism(lesson) {
  return section(
    'mechanism',
    'The mechanism',
    h('p', {}, lesson.description),
    h(
      'ol',
      { class: 'steps' },
      // A blank step (the contract allows one) says nothing: no empty numbered item.
      lesson.mechanism.filter((step) => step.trim()).map((step) => h('li', {}, step)),
    ),
  );
}

/**
 * @param {Lesson} lesson
 * @param {EquationEntry[]} equations
 * @param {string | null | undefined} equationsProblem
 */
function science(lesson, equations, equationsProblem) {
  if (!Array.isArray(lesson.science) || lesson.science.length === 0) return null;
  return section(
    'science',
    'Science and assumptions',
    lesson.science.map((item, i) =>
      h(
        'article',
        { class: 'science-item' },
        item.title.trim() ? h('h3', {}, item.title) : null, // no empty heading
        equationBlock(item.equation, equations[i], equationsProblem),
        h('p', {}, item.explanation),
        labelled('Assumptions', item.assumptions),
      ),
    ),
  );
}

/**
 * The lesson's `history` entries (optional in the Atlas contract): year, title, why it mattered, source.
 * @param {Lesson} lesson
 */
function history(lesson) {
  if (!Array.isArray(lesson.history) || lesson.history.length === 0) return null;
  return section(
    'history',
    'History',
    h(
      'ol',
      { class: 'history' },
      lesson.history.map((entry) =>
        h(
          'li',
          { class: 'history-entry' },
          h('span', { class: 'history-year' }, String(entry.year)),
          entry.title.trim() ? h('h3', {}, entry.title) : null, // no empty heading
          h('p', {}, entry.significance),
          entry.source ? h('p', { class: 'history-source' }, sourceLink(entry.source)) : null,
        ),
      ),
    ),
  );
}

/** @param {Lesson} lesson */
function distinctions(lesson) {
  const rows = [
    ['Misconception', lesson.misconception],
    ['Tradeoff', lesson.tradeoff],
    ['Why it matters for AI', lesson.whyAI],
  ].filter(([, text]) => text);
  return section(
    'distinctions',
    'Distinctions and tradeoffs',
    h(
      'dl',
      { class: 'pairs' },
      rows.map(([term, text]) => h('div', {}, h('dt', {}, term), h('dd', {}, text))),
    ),
  );
}

/** @param {Lesson} lesson */
function specifications(lesson) {
  return section(
    'specifications',
    'Specifications and interfaces',
    h(
      'dl',
      { class: 'specs' },
      lesson.specs.map((spec) =>
        h(
          'div',
          { class: 'spec' },
          h('dt', {}, spec.label),
          h('dd', {}, h('span', { class: 'spec-value' }, spec.value)),
          spec.context ? h('dd', { class: 'spec-context' }, spec.context) : null,
        ),
      ),
    ),
    h('h3', {}, 'Interfaces'),
    h(
      'ul',
      { class: 'interfaces' },
      lesson.interfaces.map((port) =>
        h(
          'li',
          {},
          h('span', { class: 'interface-name' }, port.name),
          ' ',
          directionBadge(port.direction),
          h('span', { class: 'interface-signal' }, port.signal),
        ),
      ),
    ),
  );
}

/**
 * @param {Lesson} lesson
 * @param {{onCheck: CheckCall, onAnswered: (checkIndex: number, choice: number, correct: boolean) => void, onQuizCreated: (checkIndex: number, check: LessonCheck, form: HTMLFormElement) => void, progress: Node | null, extra: Node | null}} parts
 */
function checks(lesson, { onCheck, onAnswered, onQuizCreated, progress, extra }) {
  const all = [lesson.check, ...(Array.isArray(lesson.checks) ? lesson.checks : [])];
  return checksSection(
    progress,
    all.map((check, i) => {
      const form = quizForm(
        check,
        `check-${i}`,
        (choice) => onCheck(i, choice),
        (choice, correct) => onAnswered(i, choice, correct),
      );
      onQuizCreated(i, check, form);
      return form;
    }),
    extra,
  );
}

/**
 * "Check your understanding": the element's `checks` part, also used without a lesson.
 * @param {...unknown} content
 */
export function checksSection(...content) {
  const block = section('check', 'Check your understanding', ...content);
  block.setAttribute('part', 'checks');
  return block;
}

/** @param {Lesson} lesson */
function evidence(lesson) {
  // No Atlas gate checks `scope`: show it only when it is text (the engine reads it so too).
  const scopes = [lesson.labScope, lesson.scope].filter((text) => typeof text === 'string' && text);
  if (!lesson.evidenceNotes && scopes.length === 0) return null;
  return section(
    'evidence',
    'Evidence and scope',
    lesson.evidenceNotes ? h('p', {}, lesson.evidenceNotes) : null,
    // scope and labScope are often the same sentence; show it once.
    [...new Set(scopes)].map((text) => h('p', {}, text)),
  );
}

/**
 * A source's link, named by its title, or by its address when the title is blank (allowed).
 * @param {LessonSource} source
 */
function sourceLink(source) {
  return externalLink(source.title.trim() ? source.title : source.url, source.url);
}

/**
 * @param {Lesson} lesson
 * @param {string} lessonUrl
 */
function sources(lesson, lessonUrl) {
  return section(
    'sources',
    'Sources',
    h(
      'ul',
      { class: 'sources' },
      lesson.sources.map((source) => h('li', {}, sourceLink(source))),
    ),
    h(
      'p',
      { class: 'meta-links' },
      h('a', { href: lessonUrl }, 'Published lesson data'),
      ' · ',
      externalLink('Atlas releases and licensing', ATLAS_LICENSES_URL),
    ),
  );
}

/**
 * @param {string} title
 * @param {unknown} allIds
 * @param {RelatedLessons} relatedLessons
 */
function lessonList(title, allIds, relatedLessons) {
  // An empty id (the contract allows one) names no lesson: nothing to list.
  const ids = Array.isArray(allIds) ? allIds.filter((id) => id) : [];
  if (ids.length === 0) return null;
  return [
    h('h3', {}, title),
    h(
      'ul',
      { class: 'lesson-links' },
      ids.map((id) => {
        const known = Object.hasOwn(relatedLessons, id) ? relatedLessons[id] : null;
        return h('li', {}, known ? externalLink(known.name, known.url) : id);
      }),
    ),
  ];
}

/**
 * @param {Lesson} lesson
 * @param {RelatedLessons} relatedLessons
 */
function continueExploring(lesson, relatedLessons) {
  const foundations = Array.isArray(lesson.prerequisites) ? lesson.prerequisites : [];
  // As in the published lesson, a foundation is not listed again under related lessons.
  const related = (Array.isArray(lesson.related) ? lesson.related : []).filter(
    (id) => !foundations.includes(id),
  );
  const lists = [
    lessonList('Foundations', foundations, relatedLessons),
    lessonList('Related lessons', related, relatedLessons),
  ].filter(Boolean);
  return lists.length ? section('continue', 'Continue exploring', lists) : null;
}

/**
 * @param {object} options
 * @param {Lesson} options.lesson          the record as validated by the engine
 * @param {EquationEntry[]} options.equations     equation-pack entries for this lesson (may be empty)
 * @param {string|null} [options.equationsProblem]  why the equation pack could not be had, if so
 * @param {Record<string, {name: string, url: string}>} options.relatedLessons
 * @param {string} options.lessonUrl       the lesson file's address, for "Published lesson data"
 * @param {CheckCall} options.onCheck
 * @param {(checkIndex: number, choice: number, correct: boolean) => void} options.onAnswered
 * @param {(checkIndex: number, check: LessonCheck, form: HTMLFormElement) => void} options.onQuizCreated
 * @param {Node|null} options.explorer     the trace explorer, placed after "The mechanism"
 * @param {Node|null} options.progress     the quiz progress line, atop "Check your understanding"
 * @param {Node|null} options.extraChecks  further checks, after the published ones
 * @returns {HTMLElement} the whole lesson, ready to insert in one step
 */
export function renderLesson({
  lesson,
  equations,
  equationsProblem = null,
  relatedLessons,
  lessonUrl,
  onCheck,
  onAnswered = () => {},
  onQuizCreated = () => {},
  explorer = null,
  progress = null,
  extraChecks = null,
}) {
  return h(
    'article',
    { class: 'lesson', part: 'lesson' },
    header(lesson),
    lesson.learningObjective ? section('objective', 'Learning objective', h('p', {}, lesson.learningObjective)) : null,
    mechanism(lesson),
    explorer,
    science(lesson, equations, equationsProblem),
    history(lesson),
    lesson.engineeringExample ? section('example', 'Engineering example', h('p', {}, lesson.engineeringExample)) : null,
    distinctions(lesson),
    specifications(lesson),
    checks(lesson, { onCheck, onAnswered, onQuizCreated, progress, extra: extraChecks }),
    evidence(lesson),
    sources(lesson, lessonUrl),
    continueExploring(lesson, relatedLessons),
  );
}
