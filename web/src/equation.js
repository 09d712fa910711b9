// @ts-check
// Typesets one science equation with KaTeX and always pairs it with a text reading, so the
// formula survives a KaTeX failure, a screen reader, and a copy-paste.
//
// KaTeX is two thirds of the page's script and the equation sits far below the fold, so it is
// a module of its own (chunks/katex-<hash>.js): equationBlock() leaves a slot for the math, and
// typesetEquations() loads KaTeX (with its style sheet and fonts) and fills the slots when one
// nears the viewport or the page is idle, whichever comes first. The reading and the plain
// equation are there from the start.
//
// An equation pack comes from the host (`equations-src`) and is not trusted to be small or
// tame: KaTeX's HTML for \frac{ nested 200 deep crashed Chromium's renderer (its layout
// recursion), and 100 KB of LaTeX took 31 s of main-thread typesetting. So each LaTeX string is
// measured before KaTeX sees it (LATEX_LIMITS: its length and its nesting depth), KaTeX's own
// macro-expansion and size limits are set, at most LATEX_LIMITS.maxEquations equations are
// typeset per lesson, and each is typeset in a task of its own. An equation outside a limit
// shows its text reading and LaTeX source with the reason; nothing else on the page depends on it.

import { h } from './dom.js';

export const KATEX_OPTIONS = Object.freeze({
  displayMode: true,
  output: 'htmlAndMathml',
  // Lesson data is not trusted to run \href, \url or \htmlClass-style commands.
  trust: false,
  strict: 'error',
  // A parse error (an unknown or non-strict command) throws, and typeset() shows the source as
  // text instead. KaTeX's own error rendering would put a style attribute on its error span,
  // which the page's CSP refuses (and reports).
  throwOnError: true,
  // Macro expansions per equation (KaTeX's default is 1000): a \def chain multiplies the tokens
  // typeset; the formal equations the Atlas writes expand a handful of built-in macros.
  maxExpand: 100,
  // The largest size, in em, an equation may ask for (\rule, \kern, \rule{1000em}{1000em}).
  maxSize: 20,
});

/**
 * What one equation's LaTeX may be before KaTeX is asked to typeset it. Measured in headless
 * Chromium on this project's 2-core machine (KaTeX 0.19.1, render and layout, medians of 7):
 * 996 characters of "\frac{x}{y}+" took 473 ms, \frac nested 16 deep 76 ms, the bundled
 * equation (64 characters, 2 levels) 3 ms; the renderer crashed on \frac nested 200 deep and
 * still drew it at 100. So 500 characters (a long task of at most ~0.25 s, one per equation)
 * and 16 levels (a factor of 6 from the crash), for equations that need a few dozen characters
 * and a few levels.
 */
export const LATEX_LIMITS = Object.freeze({
  /** UTF-16 code units of one LaTeX string. */
  maxLength: 500,
  /** Groups open at once: { … }, \left … \right and \begin … \end each count one level. */
  maxDepth: 16,
  /** Equations typeset in one lesson (an Atlas lesson has one to three); more are shown as text. */
  maxEquations: 16,
});

/**
 * The deepest nesting of `latex`: braces, \left…\right and \begin…\end (escaped braces excepted).
 * @param {string} latex
 */
export function latexDepth(latex) {
  let depth = 0;
  let deepest = 0;
  const open = () => {
    depth += 1;
    if (depth > deepest) deepest = depth;
  };
  for (let i = 0; i < latex.length; i += 1) {
    const c = latex[i];
    if (c === '{') open();
    else if (c === '}') depth = Math.max(0, depth - 1);
    else if (c === '\\') {
      // A control word (letters) or a control symbol (one other character, e.g. \{).
      const word = /^[A-Za-z]+/.exec(latex.slice(i + 1, i + 33))?.[0] ?? '';
      if (word === 'left' || word === 'begin') open();
      else if (word === 'right' || word === 'end') depth = Math.max(0, depth - 1);
      i += word ? word.length : 1;
    }
  }
  return deepest;
}

/**
 * Why `latex` is not typeset (a limit it passes), or null when it may be.
 * @param {string} latex
 */
export function latexProblem(latex) {
  // (The depth first: it names what crashed the renderer; one pass over a 1 MiB string took 26 ms.)
  const depth = latexDepth(latex);
  if (depth > LATEX_LIMITS.maxDepth) {
    return `its LaTeX nests ${depth} levels deep, more than the ${LATEX_LIMITS.maxDepth} an equation may`;
  }
  if (latex.length > LATEX_LIMITS.maxLength) {
    return `its LaTeX is ${latex.length} characters long, more than the ${LATEX_LIMITS.maxLength} an equation may have`;
  }
  return null;
}

/**
 * The source shown in place of math that was not typeset: at most maxLength characters of it.
 * @param {string} latex
 */
function shownSource(latex) {
  if (latex.length <= LATEX_LIMITS.maxLength) return latex;
  return `${latex.slice(0, LATEX_LIMITS.maxLength)}… (${latex.length} characters in all)`;
}

/** How far ahead of the viewport an equation starts loading KaTeX. */
const NEAR_VIEWPORT = '100% 0px';
/** The longest the math waits for an idle moment. */
const IDLE_TIMEOUT_MS = 1000;

/**
 * Slots waiting for KaTeX, each with the LaTeX it will show.
 * @type {WeakMap<Element, string>}
 */
const pendingLatex = new WeakMap();

/** @typedef {typeof import('katex').default} Katex */
/** @type {Promise<Katex> | null} */
let katexModule = null;

/** KaTeX (the default export of its ES module), loaded once per document. */
function loadKatex() {
  // KaTeX's ES module, bundled alone as chunks/katex-<hash>.js beside app.js (script/build-site).
  katexModule ??= import('katex').then((module) => module.default);
  return katexModule;
}

/**
 * Renders `latex` into a new element. katex.render builds DOM nodes and sets their inline
 * styles through CSSOM, which a CSP without 'unsafe-inline' styles permits
 * (renderToString + innerHTML would not, and would parse markup).
 * @param {Katex} katex
 * @param {string} latex
 */
function typeset(katex, latex) {
  const problem = latexProblem(latex);
  if (problem) return fallbackMath(latex, problem);
  const box = h('div', { class: 'equation-math' });
  try {
    katex.render(latex, box, KATEX_OPTIONS);
  } catch (error) {
    return fallbackMath(latex, error instanceof Error ? error.message : String(error));
  }
  // Kept as a safety net: with throwOnError, KaTeX does not render error nodes itself.
  return box.querySelector('.katex-error') ? fallbackMath(latex) : box;
}

/**
 * The place of the typeset math until typesetEquations() fills it (null without LaTeX).
 * @param {unknown} latex
 */
function mathSlot(latex) {
  if (typeof latex !== 'string' || latex === '') return null;
  const slot = h('div', { class: 'equation-math equation-math--pending' });
  pendingLatex.set(slot, latex);
  return slot;
}

/**
 * The LaTeX a slot made by equationBlock() waits to show (build-time rendering reads it).
 * @param {Element} slot
 */
export function pendingLatexOf(slot) {
  return pendingLatex.get(slot) ?? null;
}

/**
 * The LaTeX source in place of the math, and why (`reason`, when known).
 * @param {string} latex
 * @param {string | null} [reason]
 */
function fallbackMath(latex, reason = null) {
  return h(
    'div',
    { class: 'equation-math equation-math--fallback' },
    h(
      'p',
      { class: 'note' },
      reason ? `The typeset equation could not be drawn: ${reason}. Its LaTeX source:` : 'The typeset equation could not be drawn; its LaTeX source:',
    ),
    h('code', {}, shownSource(latex)),
  );
}

/** Rows of one equation's symbols table (an equation names a handful; a pack could list 50 000). */
const MAX_SYMBOLS = 32;

/**
 * @param {unknown} allVariables  the pack entry's `variables` (not checked: each row shows what it has)
 */
function symbolsTable(allVariables) {
  if (!Array.isArray(allVariables) || allVariables.length === 0) return null;
  const variables = allVariables.slice(0, MAX_SYMBOLS);
  const more = allVariables.length - variables.length;
  return h(
    'div',
    { class: 'table-wrap' },
    h(
      'table',
      { class: 'symbols' },
      h('caption', {}, more > 0 ? `Symbols and units (the first ${MAX_SYMBOLS} of ${allVariables.length})` : 'Symbols and units'),
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          h('th', { scope: 'col' }, 'Symbol'),
          h('th', { scope: 'col' }, 'Meaning'),
          h('th', { scope: 'col' }, 'Unit'),
        ),
      ),
      h(
        'tbody',
        {},
        variables.map((/** @type {{symbol?: string, meaning?: string, unit?: string} | null} */ v) =>
          h(
            'tr',
            {},
            h('th', { scope: 'row' }, h('code', {}, v?.symbol ?? '')),
            h('td', {}, v?.meaning ?? ''),
            h('td', {}, v?.unit ?? ''),
          ),
        ),
      ),
    ),
  );
}

/**
 * The equation block for one `science[i]`: a slot for the typeset math (when the equation pack
 * has an entry; see typesetEquations), its symbols-and-units table, and the "Read as text"
 * reading plus the plain equation string.
 * @param {string} plainEquation  science[i].equation from the lesson record
 * @param {{latex?: string, variables?: unknown[], text?: string} | undefined} formal  equation pack entry
 * @param {string | null} [packProblem]  why the pack could not be had
 */
export function equationBlock(plainEquation, formal, packProblem = null) {
  const math = formal ? mathSlot(formal.latex) : null;
  return h(
    'div',
    { class: 'equation-block' },
    h(
      'figure',
      { class: 'equation' },
      math,
      h(
        'figcaption',
        { class: 'equation-text' },
        h('span', { class: 'label' }, 'Read as text'),
        formal?.text ? h('span', { class: 'equation-reading' }, formal.text) : null,
        h('code', { class: 'equation-plain' }, plainEquation),
      ),
      // The pack could not be had: the equation is shown as text, and the reader told why.
      !formal && packProblem ? h('p', { class: 'note equation-note' }, `The typeset form is not shown: ${packProblem}`) : null,
    ),
    formal ? symbolsTable(formal.variables) : null,
  );
}

/**
 * Typesets every equation slot under `root` (already in the document) once one of them comes
 * within a viewport of being seen, or at the first idle moment, whichever is first; a slot
 * whose LaTeX KaTeX refuses, or a KaTeX that fails to load, shows the LaTeX source instead.
 * @param {Element} root
 * @param {() => Promise<void>} loadStyles  makes KaTeX's style sheet and fonts available; the
 *        math is inserted once it has settled, so it never shows unstyled
 * @param {object} [options]
 * @param {AbortSignal} [options.signal]  stops waiting (observer and idle callback released)
 * @returns {Promise<void>} settles when every slot is filled and the fonts it uses have loaded,
 *          or when `signal` aborts
 */
export function typesetEquations(root, loadStyles, { signal } = {}) {
  const slots = [...root.querySelectorAll('.equation-math--pending')].filter((slot) => pendingLatex.has(slot));
  if (slots.length === 0 || signal?.aborted) return Promise.resolve();
  return /** @type {Promise<void>} */ (new Promise((resolve) => {
    /** @type {IntersectionObserver | null} */
    let observer = null;
    let idle = 0;
    const release = () => {
      observer?.disconnect();
      if (typeof cancelIdleCallback === 'function') cancelIdleCallback(idle);
      else clearTimeout(idle);
    };
    signal?.addEventListener(
      'abort',
      () => {
        release();
        resolve();
      },
      { once: true },
    );
    const start = () => {
      if (!slots.length || signal?.aborted) return;
      release();
      resolve(fillSlots(slots.splice(0), loadStyles));
    };
    if (typeof IntersectionObserver === 'function') {
      observer = new IntersectionObserver((entries) => entries.some((e) => e.isIntersecting) && start(), {
        rootMargin: NEAR_VIEWPORT,
      });
      for (const slot of slots) observer.observe(slot);
    }
    idle =
      typeof requestIdleCallback === 'function'
        ? requestIdleCallback(start, { timeout: IDLE_TIMEOUT_MS })
        : setTimeout(start, 0);
  }));
}

/**
 * @param {Element[]} slots
 * @param {() => Promise<void>} loadStyles
 */
async function fillSlots(slots, loadStyles) {
  /** @type {Katex | null} */
  let katex = null;
  try {
    [katex] = await Promise.all([loadKatex(), loadStyles()]);
  } catch (error) {
    console.warn(`Showing the equations as LaTeX source: ${error instanceof Error ? error.message : error}`);
  }
  /** @type {HTMLElement[]} */
  const boxes = [];
  for (const [i, slot] of slots.entries()) {
    // One equation per task: however many a lesson has, the page answers input between them.
    if (i > 0) await new Promise((resolve) => setTimeout(resolve, 0));
    const latex = /** @type {string} */ (pendingLatex.get(slot)); // the slots were filtered by it
    pendingLatex.delete(slot);
    let box;
    if (i >= LATEX_LIMITS.maxEquations) {
      box = fallbackMath(latex, `a lesson typesets at most ${LATEX_LIMITS.maxEquations} equations`);
    } else {
      box = katex ? typeset(katex, latex) : fallbackMath(latex);
    }
    slot.replaceWith(box);
    boxes.push(box);
  }
  await loadMathFonts(boxes);
}

/**
 * Loads the fonts the typeset math uses, so that "typeset" means drawable: the next layout
 * would start these loads too, but the promise of typesetEquations() could not wait for it.
 * @param {HTMLElement[]} boxes
 */
async function loadMathFonts(boxes) {
  if (!document.fonts?.load) return;
  const faces = new Set();
  for (const box of boxes) {
    for (const el of box.querySelectorAll('.katex-html *')) {
      if (!el.firstChild || el.firstChild.nodeType !== Node.TEXT_NODE) continue;
      const style = getComputedStyle(el);
      if (/KaTeX_/.test(style.fontFamily)) faces.add(`${style.fontStyle} ${style.fontWeight} 1em ${style.fontFamily}`);
    }
  }
  await Promise.allSettled([...faces].map((face) => document.fonts.load(face)));
}
