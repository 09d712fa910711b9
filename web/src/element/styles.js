// The element's style sheets: the lesson's own (style.css) in the shadow root, and KaTeX's,
// added only when an equation is typeset (its fonts go to the document once, because Chromium
// ignores @font-face inside a shadow root; see katex-fonts.js).

import { KATEX_STYLESHEET, absoluteUrl, assetUrl, isBundledBase } from '../config.js';
import { dataUrlBytes } from './loading.js';
import { h } from '../dom.js';
import { KATEX_FONTS } from '../katex-fonts.js';

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

/**
 * KaTeX's fonts, declared in the document once per page (FontFace objects, loaded when the math
 * uses them), from beside app.js (wherever a bundler put them) or under a host's asset base. A
 * host page that links katex/katex-fonts.css itself (data-prefill-trace-fonts) keeps its own.
 */
function ensureDocumentFonts(base) {
  if (!documentFonts) {
    documentFonts = Promise.resolve();
    if (document.querySelector('link[data-prefill-trace-fonts]') || typeof FontFace !== 'function' || !document.fonts) {
      return documentFonts;
    }
    for (const [family, style, weight, file, bundled] of KATEX_FONTS) {
      const url = isBundledBase(base) ? absoluteUrl(bundled()) : assetUrl(`katex/fonts/${file}`, base);
      // A font a bundler inlined (Vite: under 4 KiB) is handed over as its bytes: loading a
      // data: URL would need `font-src data:`, which a strict CSP does not grant.
      const source = url.protocol === 'data:' ? dataUrlBytes(url.href) : `url("${url.href}") format("woff2")`;
      document.fonts.add(new FontFace(family, source, { style, weight, display: 'block' }));
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
