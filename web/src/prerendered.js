// @ts-check
// The lesson rendered into index.html at build time (script/site/prerender.mjs): the same
// view code (lesson-view.js) run in Node, inside the element as a declarative shadow root
// (<template shadowrootmode="open">), so it is readable before any script runs, and with
// none. When the element's script runs it adopts that lesson in place instead of rendering it
// again (no flash, no second render, no layout shift): the explorer takes its placeholder as
// soon as the engine is ready, and the quizzes become answerable once the lesson file has
// arrived and the engine has validated it. A view or a lesson file other than the one
// rendered in is rendered from the file as before (element/mount.js).

import { wireQuiz } from './quiz.js';

/** Marks the element's root in a pre-rendered shadow root; its value is the lesson's path. */
/** @typedef {import('./lesson-view.js').LessonCheck} QuizCheck */
export const PRERENDERED_ATTRIBUTE = 'data-prerendered-lesson';
/**
 * A pre-rendered lesson: its shadow root, the lesson's root and article, its sheet's link and
 * the lesson file it was rendered from (relative to the page).
 * @typedef {{shadow: ShadowRoot, root: Element, article: HTMLElement, sheet: Element|null, lessonPath: string}} Prerendered
 */
/** Text shown where a part needs JavaScript; removed on adoption. */
export const NEEDS_SCRIPT_CLASS = 'needs-script';
/**
 * The published lesson's quizzes, in order. The explorer's generated checks (quiz--generated,
 * explorer/checks.js) sit in the same section and may be drawn before the lesson file has
 * arrived: they are not the lesson's.
 */
const PUBLISHED_QUIZZES = '#check form.quiz:not(.quiz--generated)';

/**
 * The pre-rendered lesson in `element`'s declarative shadow root, or null. Read before
 * attachShadow(), which would empty a declarative shadow root.
 * @param {Element} element
 * @returns {Prerendered | null}
 */
export function findPrerendered(element) {
  const shadow = element.shadowRoot;
  // (`:scope >` matches nothing in a shadow root, which is not an element: walk its children.)
  const top = [...(shadow?.children ?? [])];
  const root = top.find((child) => child.matches(`.ptl[${PRERENDERED_ATTRIBUTE}]`));
  const article = /** @type {HTMLElement | null | undefined} */ (root?.querySelector(':scope > article.lesson'));
  if (!article || !shadow || !root) return null;
  return {
    shadow,
    root,
    article,
    sheet: top.find((child) => child.matches('link[data-lesson-sheet]')) ?? null,
    lessonPath: /** @type {string} */ (root.getAttribute(PRERENDERED_ATTRIBUTE)), // matched by it
  };
}

/**
 * Whether the pre-rendered lesson was rendered from the file at `lessonUrl`.
 * @param {Prerendered | null} prerendered
 * @param {URL | null | undefined} lessonUrl
 */
export function rendersFile(prerendered, lessonUrl) {
  return Boolean(prerendered && lessonUrl) && new URL(/** @type {Prerendered} */ (prerendered).lessonPath, document.baseURI).href === /** @type {URL} */ (lessonUrl).href;
}

/**
 * Puts the explorer in its placeholder, and its checks in "Check your understanding".
 * @param {Prerendered} prerendered
 * @param {{explorer: Node, progress?: Node | null, extraChecks?: Node | null}} parts
 */
export function placeExplorer(prerendered, { explorer, progress, extraChecks }) {
  const { article } = prerendered;
  article.querySelector('#explorer')?.replaceWith(explorer);
  const heading = article.querySelector('#check-heading');
  if (progress) heading?.after(progress);
  const forms = article.querySelectorAll(PUBLISHED_QUIZZES);
  if (extraChecks) (forms[forms.length - 1] ?? heading)?.after(extraChecks);
}

/**
 * Adopts the pre-rendered lesson with what renderLesson (lesson-view.js) would have been
 * given (its explorer, progress and extra checks placed by placeExplorer), and returns its
 * article, already in the shadow root.
 * @param {Prerendered} prerendered
 * @param {object} options
 * @param {{check: QuizCheck, checks?: QuizCheck[]}} options.lesson  the lesson record
 * @param {string} options.lessonUrl  the lesson file's address, as the page links it (the data link)
 * @param {(index: number, choice: number) => ReturnType<Parameters<typeof wireQuiz>[2]>} options.onCheck
 * @param {(index: number, choice: number, correct: boolean) => void} [options.onAnswered]
 * @param {(index: number, check: QuizCheck, form: HTMLFormElement) => void} [options.onQuizCreated]
 */
export function adoptLesson(prerendered, { lesson, lessonUrl, onCheck, onAnswered = () => {}, onQuizCreated = () => {} }) {
  const { article } = prerendered;
  const checks = [lesson.check, ...(Array.isArray(lesson.checks) ? lesson.checks : [])];
  [...article.querySelectorAll(/** @type {'form'} */ (PUBLISHED_QUIZZES))].forEach((form, i) => {
    wireQuiz(
      form,
      checks[i],
      (choice) => onCheck(i, choice),
      (choice, correct) => onAnswered(i, choice, correct),
    );
    form.querySelector('button[disabled]')?.removeAttribute('disabled');
    onQuizCreated(i, checks[i], form);
  });
  for (const note of article.querySelectorAll(`.${NEEDS_SCRIPT_CLASS}`)) note.remove();
  // The build wrote the data link relative to index.html; this is where the page found it.
  const dataLink = /** @type {HTMLAnchorElement | null} */ (article.querySelector('#sources .meta-links a'));
  if (dataLink) dataLink.href = lessonUrl;
  return article;
}

/**
 * The engine could not start: the built-in lesson stays as it is, `message` takes the
 * explorer's place, and the quizzes say why they cannot be checked.
 * @param {Prerendered} prerendered
 * @param {Node} message
 */
export function keepBuiltInWithoutEngine(prerendered, message) {
  const { article } = prerendered;
  article.querySelector('#explorer')?.replaceWith(message);
  for (const note of article.querySelectorAll(`form.quiz .${NEEDS_SCRIPT_CLASS}`)) {
    note.textContent = 'Checking an answer needs the lesson engine, which could not start.';
  }
}
