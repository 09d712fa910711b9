// The lesson rendered into index.html at build time (script/site/prerender.mjs): the same
// view code (lesson-view.js) run in Node, inside the element as a declarative shadow root
// (<template shadowrootmode="open">), so it is readable before any script runs, and with
// none. When the element's script runs it adopts that lesson in place — the quizzes become
// answerable, the explorer takes its placeholder — instead of rendering it again: no flash,
// no second render, no layout shift. A different lesson file than the one rendered in is
// rendered from the file as before.

import { wireQuiz } from './quiz.js';

/** Marks the element's root in a pre-rendered shadow root; its value is the lesson's path. */
export const PRERENDERED_ATTRIBUTE = 'data-prerendered-lesson';
/** Text shown where a part needs JavaScript; removed on adoption. */
export const NEEDS_SCRIPT_CLASS = 'needs-script';

/**
 * The pre-rendered lesson in `element`'s declarative shadow root, or null.
 * @returns {{shadow: ShadowRoot, root: HTMLElement, article: HTMLElement, lessonSheet: Element|null,
 *            lessonPath: string} | null}
 */
export function findPrerendered(element) {
  const shadow = element.shadowRoot;
  // (`:scope >` matches nothing in a shadow root, which is not an element: walk its children.)
  const top = [...(shadow?.children ?? [])];
  const root = top.find((child) => child.matches(`.ptl[${PRERENDERED_ATTRIBUTE}]`));
  const article = root?.querySelector(':scope > article.lesson');
  if (!article) return null;
  return {
    shadow,
    root,
    article,
    lessonSheet: top.find((child) => child.matches('link[data-lesson-sheet]')) ?? null,
    lessonPath: root.getAttribute(PRERENDERED_ATTRIBUTE),
  };
}

/**
 * Whether the pre-rendered lesson is the one in the file at `lessonUrl`: the same address,
 * and a file whose bytes matched the SHA-256 prefix in its published name (so the same bytes
 * the build validated and rendered).
 */
export function isPrerenderedFile(prerendered, lessonUrl, integrity) {
  if (!prerendered || integrity?.status !== 'verified') return false;
  const rendered = new URL(prerendered.lessonPath, document.baseURI);
  return rendered.href === lessonUrl.href;
}

/**
 * Adopts the pre-rendered lesson with what renderLesson (lesson-view.js) would have been
 * given, and returns its article (already in the shadow root).
 */
export function adoptLesson(prerendered, { lesson, lessonUrl, onCheck, onAnswered, onQuizCreated, explorer, progress, extraChecks }) {
  const { article } = prerendered;
  const checks = [lesson.check, ...(Array.isArray(lesson.checks) ? lesson.checks : [])];
  const forms = [...article.querySelectorAll('#check form.quiz')];
  forms.forEach((form, i) => {
    wireQuiz(
      form,
      checks[i],
      (choice) => onCheck(i, choice),
      (choice, correct) => onAnswered(i, choice, correct),
    );
    onQuizCreated(i, checks[i], form);
  });
  for (const note of article.querySelectorAll(`.${NEEDS_SCRIPT_CLASS}`)) note.remove();
  for (const button of article.querySelectorAll('#check form.quiz button[disabled]')) button.disabled = false;
  const placeholder = article.querySelector('#explorer');
  if (placeholder && explorer) placeholder.replaceWith(explorer);
  if (progress) article.querySelector('#check-heading')?.after(progress);
  if (extraChecks) (forms.at(-1) ?? article.querySelector('#check-heading'))?.after(extraChecks);
  // The build wrote the data link relative to index.html; this is where the page found it.
  const dataLink = article.querySelector('#sources .meta-links a');
  if (dataLink) dataLink.href = lessonUrl;
  return article;
}
