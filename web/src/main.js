// Page entry: fetch the lesson and its companion files, validate the lesson with the engine,
// then render it in one step — or show one clear message instead, never half a page.
//
// Query parameter: ?lesson=<path> loads another lesson file from the same origin (used by the
// browser tests for an invalid fixture). Anything that resolves off-origin is refused.

import {
  DEFAULT_LESSON_PATH,
  EQUATIONS_PATH,
  RELATED_LESSONS_PATH,
} from './config.js';
import { loadEngine } from './engine.js';
import { h } from './dom.js';
import { renderLesson } from './lesson-view.js';

const root = document.getElementById('lesson');

class PageError extends Error {
  constructor(title, detail) {
    super(detail);
    this.title = title;
  }
}

function showError(title, detail) {
  root.replaceChildren(
    h(
      'div',
      { class: 'page-error', role: 'alert' },
      h('h1', {}, title),
      h('p', {}, detail),
    ),
  );
  root.removeAttribute('aria-busy');
}

function lessonUrlFromQuery() {
  const requested = new URLSearchParams(window.location.search).get('lesson');
  const url = new URL(requested || DEFAULT_LESSON_PATH, document.baseURI);
  if (url.origin !== window.location.origin) {
    throw new PageError(
      'This lesson cannot be shown',
      `The lesson address must be on this site; refused ${url.href}.`,
    );
  }
  return url;
}

async function fetchText(url) {
  let response;
  try {
    response = await fetch(url, { credentials: 'same-origin' });
  } catch (error) {
    throw new PageError('The lesson could not be loaded', `${url.pathname}: ${error.message}`);
  }
  if (!response.ok) {
    throw new PageError(
      'The lesson could not be loaded',
      `${url.pathname}: HTTP ${response.status} ${response.statusText}`.trim(),
    );
  }
  return response.text();
}

/** Companion data (equations, lesson names) improves the page but is not required for it. */
async function fetchOptionalJson(path) {
  try {
    return JSON.parse(await fetchText(new URL(path, document.baseURI)));
  } catch (error) {
    console.warn(`Rendering without ${path}: ${error.message}`);
    return null;
  }
}

async function main() {
  const lessonUrl = lessonUrlFromQuery();
  const [engine, lessonText, equationPack, relatedFile] = await Promise.all([
    loadEngine().catch((error) => {
      throw new PageError(
        'The lesson engine could not start',
        `The WebAssembly module failed to load: ${error.message}`,
      );
    }),
    fetchText(lessonUrl),
    fetchOptionalJson(EQUATIONS_PATH),
    fetchOptionalJson(RELATED_LESSONS_PATH),
  ]);

  const result = engine.loadLesson(lessonText);
  if (!result.ok) {
    throw new PageError('This lesson file is not valid', result.error);
  }
  const { lesson } = result;
  const equations = equationPack?.[lesson.id];
  const relatedLessons = relatedFile?.lessons;

  const view = renderLesson({
    lesson,
    equations: Array.isArray(equations) ? equations : [],
    relatedLessons: relatedLessons && typeof relatedLessons === 'object' ? relatedLessons : {},
    lessonUrl: lessonUrl.pathname + lessonUrl.search,
    onCheck: (checkIndex, choice) => engine.checkAnswer(lessonText, checkIndex, choice),
  });
  document.title = `${lesson.name} · AI Machinery Atlas`;
  root.replaceChildren(view);
  root.removeAttribute('aria-busy');
  root.dataset.engineVersion = engine.version();
}

main().catch((error) => {
  if (error instanceof PageError) {
    showError(error.title, error.message);
  } else {
    showError('The lesson could not be shown', error instanceof Error ? error.message : String(error));
  }
});
