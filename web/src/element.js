// <prefill-trace-lesson lesson-src="…" [sync-url]>: the whole lesson — the published lesson
// view, the trace explorer and the checks — in a shadow root, so the host page's styles do not
// reach it and its styles do not reach the host. Embedding takes two tags:
//
//   <script type="module" src="…/app.js"></script>
//   <prefill-trace-lesson lesson-src="…/lesson.json"></prefill-trace-lesson>
//
// Assets (style sheets, the modules loaded later, the wasm engine, companion data) resolve
// against app.js's own URL.
// `lesson-src` resolves against the host page, like any src attribute; without it the bundled
// lesson is shown. `sync-url` lets the element own the page's URL: the scenario lives in the
// query string (permalinks, back/forward), `?lesson=` may name another same-origin lesson file,
// and the document title follows the lesson.
//
// The element's `data-state` is `loading` until every part is drawn, then `ready`: that
// includes what is drawn after the first trace (the explorer's charts and generated checks, the
// typeset equation; see explorer.js and equation.js).
//
// Each part fails alone: a missing module, a lesson that fails validation or an engine error
// shows a message in place of that part, and the rest still renders. A lesson file whose name
// carries a SHA-256 prefix is checked against it before it is decoded (lesson-file.js); a
// mismatch is such a failure, and nothing of the file is shown.

import {
  DEFAULT_LESSON_PATH,
  DOCUMENT_FONT_STYLESHEET,
  EQUATIONS_PATH,
  KATEX_STYLESHEET,
  PROGRESS_STORAGE_KEY,
  RELATED_LESSONS_PATH,
  SHADOW_STYLESHEET,
  assetUrl,
} from './config.js';
import { h } from './dom.js';
import { loadEngine } from './engine.js';
import { typesetEquations } from './equation.js';
import { prepareNumberFormat } from './format.js';
import { GeneratedChecks, ProgressSummary } from './explorer/checks.js';
import { Explorer } from './explorer/explorer.js';
import { checkIntegrity, decodeLessonBytes } from './lesson-file.js';
import { renderLesson } from './lesson-view.js';
import { adoptLesson, findPrerendered, isPrerenderedFile } from './prerendered.js';
import { ProgressStore, questionKeyText, sha256Hex } from './progress.js';
import { answerQuiz } from './quiz.js';

class PartError extends Error {
  constructor(title, detail) {
    super(detail);
    this.title = title;
  }
}

function describe(error) {
  return error instanceof Error ? error.message : String(error);
}

/** A message standing in for a part of the lesson that could not be shown. */
function errorBlock(title, detail) {
  return h(
    'div',
    { class: 'page-error', role: 'alert' },
    h('h2', { class: 'page-error-title' }, title),
    h('p', {}, detail),
  );
}

/** A <link rel=stylesheet> and a promise that settles when it has loaded (or failed to). */
function stylesheet(path, attrs = {}) {
  const link = h('link', { rel: 'stylesheet', href: assetUrl(path).href, ...attrs });
  const loaded = new Promise((resolve) => {
    link.addEventListener('load', resolve, { once: true });
    link.addEventListener('error', resolve, { once: true });
  });
  return { link, loaded };
}

let documentFonts = null;

/** KaTeX's @font-face rules must be declared in the document (see config.js); once per page. */
function ensureDocumentFonts() {
  if (!documentFonts) {
    const existing = document.querySelector('link[data-prefill-trace-fonts]');
    if (existing) {
      documentFonts = Promise.resolve();
    } else {
      const sheet = stylesheet(DOCUMENT_FONT_STYLESHEET, { 'data-prefill-trace-fonts': '' });
      document.head.append(sheet.link);
      documentFonts = sheet.loaded;
    }
  }
  return documentFonts;
}

async function fetchResponse(url) {
  let response;
  try {
    response = await fetch(url, { credentials: 'same-origin' });
  } catch (error) {
    throw new PartError('The lesson could not be loaded', `${url.pathname}: ${describe(error)}`);
  }
  if (!response.ok) {
    throw new PartError(
      'The lesson could not be loaded',
      `${url.pathname}: HTTP ${response.status} ${response.statusText}`.trim(),
    );
  }
  return response;
}

async function fetchText(url) {
  return (await fetchResponse(url)).text();
}

/**
 * The lesson file's text, after its integrity check (when its name carries a SHA-256 prefix)
 * and a decoding that keeps its bytes' meaning (see lesson-file.js).
 * @returns {Promise<{text: string, integrity: object}>}
 */
async function fetchLesson(url) {
  const bytes = await (await fetchResponse(url)).arrayBuffer();
  // The hash is taken over the bytes as served, before anything is decoded.
  const integrity = await checkIntegrity(url, bytes);
  if (integrity.status === 'mismatch') {
    const error = new PartError(
      'This lesson file failed its integrity check',
      `integrity: SHA-256 of the file begins ${integrity.actual}, but its published name says ${integrity.expected}`,
    );
    error.integrity = integrity;
    throw error;
  }
  const decoded = decodeLessonBytes(bytes);
  if (!decoded.ok) throw new PartError('This lesson file is not valid', decoded.error);
  return { text: decoded.text, integrity };
}

/** Companion data (equations, lesson names) improves the page but is not required for it. */
async function fetchOptionalJson(path) {
  try {
    return JSON.parse(await fetchText(assetUrl(path)));
  } catch (error) {
    console.warn(`Rendering without ${path}: ${describe(error)}`);
    return null;
  }
}

export class PrefillTraceLesson extends HTMLElement {
  #started = false;
  #shadow = null;
  #lessonSheet = null;
  #katexStyles = null;

  connectedCallback() {
    if (this.#started) return;
    this.#started = true;
    this.setAttribute('data-state', 'loading');
    // A lesson rendered in at build time is shown already, styled: adopted, not redrawn.
    const prerendered = findPrerendered(this);
    let root;
    let styled;
    if (prerendered) {
      this.#shadow = prerendered.shadow;
      this.#lessonSheet = prerendered.lessonSheet;
      // Its KaTeX style sheets are in the shadow root and its fonts in the document already.
      this.#katexStyles = Promise.resolve();
      root = prerendered.root;
      styled = Promise.resolve();
    } else {
      const shadow = this.attachShadow({ mode: 'open' });
      const sheet = stylesheet(SHADOW_STYLESHEET);
      this.#shadow = shadow;
      this.#lessonSheet = sheet.link;
      const article = h(
        'article',
        { class: 'lesson', 'aria-busy': 'true' },
        h('p', { class: 'loading' }, 'Loading the lesson…'),
      );
      // Hidden until the style sheet applies, so the lesson never flashes unstyled.
      root = h('div', { class: 'ptl', hidden: true }, article);
      shadow.append(sheet.link, root);
      styled = sheet.loaded.then(() => {
        root.hidden = false;
      });
    }
    this.#run(root, styled, prerendered)
      .catch((error) => {
        root.replaceChildren(
          h('article', { class: 'lesson' }, errorBlock('The lesson could not be shown', describe(error))),
        );
      })
      .finally(async () => {
        await styled;
        this.setAttribute('data-state', 'ready');
      });
  }

  /** KaTeX's style sheet in the shadow root (before the lesson's) and its fonts in the document. */
  #loadKatexStyles() {
    if (!this.#katexStyles) {
      const sheet = stylesheet(KATEX_STYLESHEET);
      this.#shadow.insertBefore(sheet.link, this.#lessonSheet);
      this.#katexStyles = Promise.all([sheet.loaded, ensureDocumentFonts()]).then(() => {});
    }
    return this.#katexStyles;
  }

  /** The lesson file to show: `?lesson=` (when the element owns the URL), `lesson-src`, or the bundled one. */
  #lessonUrl() {
    const requested = this.hasAttribute('sync-url')
      ? new URLSearchParams(window.location.search).get('lesson')
      : null;
    const source = requested || this.getAttribute('lesson-src');
    const url = source ? new URL(source, document.baseURI) : assetUrl(DEFAULT_LESSON_PATH);
    if (url.origin !== window.location.origin) {
      throw new PartError(
        'This lesson cannot be shown',
        `The lesson address must be on this site; refused ${url.href}.`,
      );
    }
    return url;
  }

  /**
   * Loads everything, then puts the lesson (or a message per broken part) into `root`; settles
   * once every part is drawn, including those drawn after the first trace (the explorer's
   * charts and checks, the typeset equation).
   */
  async #run(root, styled, prerendered) {
    const syncUrl = this.hasAttribute('sync-url');
    let lessonUrl = null;
    let lessonFile = Promise.resolve(null);
    try {
      lessonUrl = this.#lessonUrl();
      lessonFile = fetchLesson(lessonUrl);
    } catch (error) {
      lessonFile = Promise.reject(error);
    }
    const loaded = Promise.allSettled([
      loadEngine(),
      lessonFile,
      fetchOptionalJson(EQUATIONS_PATH),
      fetchOptionalJson(RELATED_LESSONS_PATH),
    ]);
    // The engine compiles on other threads meanwhile: this one makes the number formatter
    // then (tens of ms, see format.js), in a task of its own, not in the first drawing.
    setTimeout(prepareNumberFormat, 0);
    const [engineResult, lessonResult, equationPack, relatedFile] = await loaded;

    if (engineResult.status === 'rejected') {
      root.replaceChildren(
        h(
          'article',
          { class: 'lesson' },
          errorBlock(
          'The lesson engine could not start',
          `The WebAssembly module failed to load: ${describe(engineResult.reason)}. ` +
            'The lesson (which the engine validates) and the trace explorer need it.',
          ),
        ),
      );
      return;
    }
    const engine = engineResult.value;
    this.dataset.engineVersion = engine.version();

    // Quiz progress, shared by the published check and the generated ones.
    const progress = new ProgressStore(PROGRESS_STORAGE_KEY);
    const summary = new ProgressSummary(() => {
      progress.clear();
      summary.reset();
      for (const form of root.querySelectorAll('form.quiz')) {
        form.reset();
        form.removeAttribute('data-result');
        form.querySelector('.feedback')?.replaceChildren();
        for (const option of form.querySelectorAll('[data-result]')) option.removeAttribute('data-result');
      }
    });

    // The explorer needs only the engine.
    let explorer = null;
    let generated = null;
    let explorerNode;
    const presets = engine.listPresets();
    if (presets.ok) {
      generated = new GeneratedChecks({ engine, progress, summary });
      explorer = new Explorer({
        engine,
        presets: presets.value,
        syncUrl,
        onScenario: (json) => generated.update(json),
        scenarioElement: generated.element,
      });
      explorerNode = explorer.element;
    } else {
      explorerNode = h(
        'section',
        { id: 'explorer', class: 'explorer', 'aria-label': 'Trace explorer' },
        errorBlock('The trace explorer could not start', `The engine could not list its presets: ${presets.error}`),
      );
    }

    // The lesson needs its file, validated by the engine.
    let lessonView = null;
    let lessonProblem = null;
    if (lessonResult.status === 'rejected') {
      lessonProblem = lessonResult.reason;
      if (lessonProblem?.integrity) this.dataset.lessonIntegrity = lessonProblem.integrity.status;
    } else {
      const { text, integrity } = lessonResult.value;
      this.dataset.lessonIntegrity = integrity.status;
      const validated = engine.loadLesson(text);
      if (!validated.ok) {
        lessonProblem = new PartError('This lesson file is not valid', validated.error);
      } else {
        const { lesson } = validated;
        const equations = equationPack.value?.[lesson.id];
        const related = relatedFile.value?.lessons;
        const keys = new Map();
        const render = isPrerenderedFile(prerendered, lessonUrl, integrity) ? adoptLesson.bind(null, prerendered) : renderLesson;
        lessonView = render({
          lesson,
          equations: Array.isArray(equations) ? equations : [],
          relatedLessons: related && typeof related === 'object' ? related : {},
          lessonUrl: lessonUrl.pathname + lessonUrl.search,
          onCheck: (checkIndex, choice) => engine.checkAnswer(text, checkIndex, choice),
          onQuizCreated: (i, check, form) => {
            const slot = `published:${i}`;
            summary.set(slot, null);
            const key = sha256Hex(
              questionKeyText({ question: check.question, options: check.options, answer: check.answer }),
            ).catch(() => null);
            keys.set(i, key);
            key.then((k) => {
              if (!k) return;
              progress.claimSlot(slot, k);
              const saved = progress.get(k);
              if (saved) answerQuiz(form, saved.answer);
            });
          },
          onAnswered: (i, choice, correct) => {
            summary.set(`published:${i}`, correct);
            keys.get(i)?.then((k) => progress.save(k, choice, correct));
          },
          explorer: explorerNode,
          progress: summary.element,
          extraChecks: generated?.element ?? null,
        });
        if (integrity.status === 'unchecked') {
          lessonView.prepend(
            h(
              'p',
              { class: 'integrity-note', role: 'note' },
              h('span', { class: 'label' }, 'Integrity not checked'),
              ` The lesson file's SHA-256 could not be compared with the prefix in its published name: ${integrity.reason}.`,
            ),
          );
        }
        if (syncUrl) document.title = `${lesson.name} · AI Machinery Atlas`;
      }
    }

    await styled;
    let article = lessonView;
    if (!article) {
      const problem =
        lessonProblem instanceof PartError
          ? lessonProblem
          : new PartError('The lesson could not be shown', describe(lessonProblem));
      article = h(
        'article',
        { class: 'lesson lesson--partial' },
        errorBlock(problem.title, problem.message),
        explorerNode,
        generated
          ? h(
              'section',
              { id: 'check', class: 'lesson-section', 'aria-labelledby': 'check-heading' },
              h('h2', { id: 'check-heading' }, 'Check your understanding'),
              summary.element,
              generated.element,
            )
          : null,
      );
    }
    article.setAttribute('aria-busy', 'true');
    if (article.parentNode !== root) root.replaceChildren(article);
    if (explorer) await explorer.start();
    article.removeAttribute('aria-busy');
    // Below the first screen, after the first trace: KaTeX and the rest of the explorer.
    await Promise.all([
      typesetEquations(article, () => this.#loadKatexStyles()),
      explorer?.fullyShown(),
    ]);
  }
}
