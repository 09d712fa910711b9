// Typesets one science equation with KaTeX and always pairs it with a text reading, so the
// formula survives a KaTeX failure, a screen reader, and a copy-paste.
//
// KaTeX is two thirds of the page's script and the equation sits far below the fold, so it is
// a module of its own (chunks/katex-<hash>.js): equationBlock() leaves a slot for the math, and
// typesetEquations() loads KaTeX (with its style sheet and fonts) and fills the slots when one
// nears the viewport or the page is idle, whichever comes first. The reading and the plain
// equation are there from the start.

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
});

/** How far ahead of the viewport an equation starts loading KaTeX. */
const NEAR_VIEWPORT = '100% 0px';
/** The longest the math waits for an idle moment. */
const IDLE_TIMEOUT_MS = 1000;

/** Slots waiting for KaTeX, each with the LaTeX it will show. */
const pendingLatex = new WeakMap();

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
 */
function typeset(katex, latex) {
  const box = h('div', { class: 'equation-math' });
  try {
    katex.render(latex, box, KATEX_OPTIONS);
  } catch {
    return fallbackMath(latex);
  }
  // Kept as a safety net: with throwOnError, KaTeX does not render error nodes itself.
  return box.querySelector('.katex-error') ? fallbackMath(latex) : box;
}

/** The place of the typeset math until typesetEquations() fills it (null without LaTeX). */
function mathSlot(latex) {
  if (typeof latex !== 'string' || latex === '') return null;
  const slot = h('div', { class: 'equation-math equation-math--pending' });
  pendingLatex.set(slot, latex);
  return slot;
}

/** The LaTeX a slot made by equationBlock() waits to show (build-time rendering reads it). */
export function pendingLatexOf(slot) {
  return pendingLatex.get(slot) ?? null;
}

function fallbackMath(latex) {
  return h(
    'div',
    { class: 'equation-math equation-math--fallback' },
    h('p', { class: 'note' }, 'The typeset equation could not be drawn; its LaTeX source:'),
    h('code', {}, latex),
  );
}

function symbolsTable(variables) {
  if (!Array.isArray(variables) || variables.length === 0) return null;
  return h(
    'div',
    { class: 'table-wrap' },
    h(
      'table',
      { class: 'symbols' },
      h('caption', {}, 'Symbols and units'),
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
        variables.map((v) =>
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
 * @param {{latex?: string, variables?: Array, text?: string} | undefined} formal  equation pack entry
 */
export function equationBlock(plainEquation, formal) {
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
  return new Promise((resolve) => {
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
  });
}

async function fillSlots(slots, loadStyles) {
  let katex = null;
  try {
    [katex] = await Promise.all([loadKatex(), loadStyles()]);
  } catch (error) {
    console.warn(`Showing the equations as LaTeX source: ${error instanceof Error ? error.message : error}`);
  }
  const boxes = slots.map((slot) => {
    const latex = pendingLatex.get(slot);
    pendingLatex.delete(slot);
    const box = katex ? typeset(katex, latex) : fallbackMath(latex);
    slot.replaceWith(box);
    return box;
  });
  await loadMathFonts(boxes);
}

/**
 * Loads the fonts the typeset math uses, so that "typeset" means drawable: the next layout
 * would start these loads too, but the promise of typesetEquations() could not wait for it.
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
