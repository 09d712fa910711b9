// @ts-check
// The lesson's part of one rendering (element/mount.js): the published lesson drawn (or the
// one built into the page adopted) with its checks wired to the stored answers, and the
// blocks that stand in for a part that could not be shown.

import { h } from '../dom.js';
import { renderLesson } from '../lesson-view.js';
import { adoptLesson } from '../prerendered.js';
import { questionKeyText, sha256Hex } from '../progress.js';
import { answerQuiz } from '../quiz.js';

/**
 * The lesson and its companions: its validated record and file text, the file's address and
 * integrity check, the equation pack and related-lessons file (parsed JSON, not yet checked),
 * and why the pack could not be had.
 * @typedef {{lesson: import('../lesson-view.js').Lesson, text: string, lessonUrl: URL, integrity: import('./loading.js').Integrity | {status: 'unchecked', reason: string} | null | undefined, equationPack: Record<string, unknown> | null | undefined, relatedFile: {lessons?: unknown} | null | undefined, packProblem: string | null}} LessonPart
 */
/**
 * What the lesson is drawn with: the engine, the stored answers and their summary line, the
 * pre-rendered lesson to adopt (or null), the explorer's element and extra checks (or null), the
 * rendering's signal, and the published forms by question key.
 * @typedef {{engine: import('../engine.js').Engine, progress: import('../progress.js').ProgressStore, summary: import('../explorer/checks.js').ProgressSummary, adopting: import('../prerendered.js').Prerendered | null, explorer: Node | null, extraChecks: Node | null, signal: AbortSignal, publishedForms: Map<string, HTMLFormElement>}} Rendering
 */

/**
 * A message standing in for a part of the lesson that could not be shown.
 * @param {string} title
 * @param {string} detail
 */
export function errorBlock(title, detail) {
  return h('div', { class: 'page-error', role: 'alert' }, h('h2', { class: 'page-error-title' }, title), h('p', {}, detail));
}

/**
 * Clears a quiz form's answer and verdict.
 * @param {HTMLFormElement} form
 */
export function resetQuiz(form) {
  form.reset();
  form.removeAttribute('data-result');
  form.querySelector('.feedback')?.replaceChildren();
  for (const option of form.querySelectorAll('[data-result]')) option.removeAttribute('data-result');
}

/**
 * The lesson's article: `lesson` (validated, its file's `text`) drawn around the explorer's
 * parts (or adopted from `adopting`, the lesson built into the page), each published check
 * keyed by its question's hash in `progress` and kept in `publishedForms` by that key.
 * @param {LessonPart} lessonPart  the lesson and its companions
 * @param {Rendering} rendering   the rendering's parts
 */
export function renderLessonPart(lessonPart, rendering) {
  const { lesson, text, lessonUrl, integrity, equationPack, relatedFile, packProblem } = lessonPart;
  const { engine, progress, summary, adopting, signal, publishedForms } = rendering;
  const equations = equationPack?.[lesson.id];
  const related = relatedFile?.lessons;
  /** @type {Map<number, Promise<string | null>>} */
  const keys = new Map();
  const render = adopting ? (/** @type {Parameters<typeof renderLesson>[0]} */ options) => adoptLesson(adopting, options) : renderLesson;
  const view = render({
    lesson,
    equations: Array.isArray(equations) ? equations : [],
    equationsProblem: packProblem,
    relatedLessons: related && typeof related === 'object' ? /** @type {import('../lesson-view.js').RelatedLessons} */ (related) : {},
    lessonUrl: lessonUrl.pathname + lessonUrl.search,
    onCheck: (checkIndex, choice) => engine.checkAnswer(text, checkIndex, choice),
    onQuizCreated: (i, check, form) => {
      // Stored slots are per lesson: another lesson's check i never evicts this one's answer.
      const slot = `${lesson.id}:published:${i}`;
      summary.set(`published:${i}`, null);
      const key = sha256Hex(questionKeyText({ question: check.question, options: check.options, answer: check.answer })).catch(
        () => null,
      );
      keys.set(i, key);
      key.then((k) => {
        if (!k || signal.aborted) return;
        publishedForms.set(k, form);
        progress.claimSlot(slot, k);
        const saved = progress.get(k);
        if (saved) answerQuiz(form, saved.answer);
      });
    },
    onAnswered: (i, choice, correct) => {
      summary.set(`published:${i}`, correct);
      keys.get(i)?.then((k) => progress.save(k, choice, correct));
    },
    explorer: rendering.explorer,
    progress: summary.element,
    extraChecks: rendering.extraChecks,
  });
  if (integrity?.status === 'unchecked') {
    view.prepend(
      h(
        'p',
        { class: 'integrity-note', role: 'note' },
        h('span', { class: 'label' }, 'Integrity not checked'),
        ` The lesson file's SHA-256 could not be compared with the prefix in its published name: ${integrity.reason}.`,
      ),
    );
  }
  return view;
}
