// The element's style sheets: the lesson's own (style.css) in the shadow root, and KaTeX's,
// added only when an equation is typeset (its @font-face rules go to the document once, because
// Chromium ignores @font-face inside a shadow root; see config.js).

import { DOCUMENT_FONT_STYLESHEET, KATEX_STYLESHEET, assetUrl } from '../config.js';
import { h } from '../dom.js';

/** A <link rel=stylesheet> and a promise that settles when it has loaded (or failed to). */
export function stylesheet(path, base, attrs = {}) {
  const link = h('link', { rel: 'stylesheet', href: assetUrl(path, base).href, ...attrs });
  const loaded = new Promise((resolve) => {
    link.addEventListener('load', resolve, { once: true });
    link.addEventListener('error', resolve, { once: true });
  });
  return { link, loaded };
}

let documentFonts = null;

/** KaTeX's @font-face rules, declared in the document once per page. */
function ensureDocumentFonts(base) {
  if (!documentFonts) {
    const existing = document.querySelector('link[data-prefill-trace-fonts]');
    if (existing) {
      documentFonts = Promise.resolve();
    } else {
      const sheet = stylesheet(DOCUMENT_FONT_STYLESHEET, base, { 'data-prefill-trace-fonts': '' });
      document.head.append(sheet.link);
      documentFonts = sheet.loaded;
    }
  }
  return documentFonts;
}

/**
 * Adds KaTeX's style sheet to `shadow` before `before` (the lesson's sheet, whose rules refine
 * it) and its fonts to the document; settles when both have loaded.
 */
export function loadKatexStyles(shadow, before, base) {
  let loaded = katexStyles.get(shadow);
  if (!loaded) {
    const sheet = stylesheet(KATEX_STYLESHEET, base);
    shadow.insertBefore(sheet.link, before);
    loaded = Promise.all([sheet.loaded, ensureDocumentFonts(base)]).then(() => {});
    katexStyles.set(shadow, loaded);
  }
  return loaded;
}

/** Per shadow root: KaTeX's style sheet, once added. */
const katexStyles = new WeakMap();
