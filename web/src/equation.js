// Typesets one science equation with KaTeX and always pairs it with a text reading, so the
// formula survives a KaTeX failure, a screen reader, and a copy-paste.

import katex from 'katex';
import { h } from './dom.js';

const KATEX_OPTIONS = Object.freeze({
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

/**
 * Renders `latex` into a new element. katex.render builds DOM nodes and sets their inline
 * styles through CSSOM, which a CSP without 'unsafe-inline' styles permits
 * (renderToString + innerHTML would not, and would parse markup).
 */
function typeset(latex) {
  const box = h('div', { class: 'equation-math' });
  if (typeof latex !== 'string' || latex === '') return null;
  try {
    katex.render(latex, box, KATEX_OPTIONS);
  } catch {
    return fallbackMath(latex);
  }
  // Kept as a safety net: with throwOnError, KaTeX does not render error nodes itself.
  return box.querySelector('.katex-error') ? fallbackMath(latex) : box;
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
 * The equation block for one `science[i]`: typeset math (when the equation pack has an entry),
 * its symbols-and-units table, and the "Read as text" reading plus the plain equation string.
 * @param {string} plainEquation  science[i].equation from the lesson record
 * @param {{latex?: string, variables?: Array, text?: string} | undefined} formal  equation pack entry
 */
export function equationBlock(plainEquation, formal) {
  const math = formal ? typeset(formal.latex) : null;
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
