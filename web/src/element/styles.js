// @ts-check
// The element's style sheets: the lesson's own (style.css) in the shadow root, and KaTeX's,
// added only when an equation is typeset (its fonts go to the document once, because Chromium
// ignores @font-face inside a shadow root; see katex-fonts.js).

import { KATEX_STYLESHEET, SHADOW_STYLESHEET, absoluteUrl, assetUrl, isBundledBase } from '../config.js';
import { dataUrlBytes } from './loading.js';
import { h } from '../dom.js';
import { KATEX_FONTS } from '../katex-fonts.js';

/**
 * A rule each of the element's sheets has (its selector), to tell the sheet from what a bundler
 * served in its place: Next.js's webpack (app router) runs every `.css` file, also one named by
 * `new URL(…, import.meta.url)`, through its CSS loaders and serves their JS output at the
 * address, which loads as a sheet with none of these rules.
 * @type {Record<string, string>}
 */
const SHEET_MARKERS = { [SHADOW_STYLESHEET]: ':host', [KATEX_STYLESHEET]: '.katex' };

/**
 * A <link rel=stylesheet> and a promise that settles when it has loaded (or failed to). Where a
 * bundler left one of the element's own sheets at an address the page cannot load (a `file:`
 * address under an http(s) page: Next 15.5's `next build --turbopack` emits no file for a `.css`
 * named by `new URL(…, import.meta.url)`), or served something else there (Next's webpack), or
 * nothing, the sheet comes from a script chunk instead (carriedSheet).
 * @param {string} path
 * @param {URL} base
 * @param {Record<string, string>} [attrs]
 * @returns {{link: HTMLLinkElement, loaded: Promise<void>}}
 */
export function stylesheet(path, base, attrs = {}) {
  const url = assetUrl(path, base);
  const own = isBundledBase(base) && Object.hasOwn(SHEET_MARKERS, path);
  if (own && url.protocol === 'file:' && globalThis.location?.protocol !== 'file:') {
    const link = /** @type {HTMLLinkElement} */ (h('link', { 'data-carried-sheet': path }));
    return { link, loaded: carriedSheet(link, path) };
  }
  const link = /** @type {HTMLLinkElement} */ (h('link', { rel: 'stylesheet', href: url.href, ...attrs }));
  /** @type {Promise<void>} */
  const loaded = new Promise((resolve) => {
    link.addEventListener('load', () => resolve(own && !hasRule(link.sheet, SHEET_MARKERS[path]) ? carriedSheet(link, path) : undefined), { once: true });
    link.addEventListener('error', () => resolve(own ? carriedSheet(link, path) : undefined), { once: true });
  });
  return { link, loaded };
}

/**
 * Whether `sheet` has a style rule for `selector` (true when the sheet cannot be read: another origin's).
 * @param {CSSStyleSheet | null} sheet
 * @param {string} selector
 */
function hasRule(sheet, selector) {
  try {
    return [...(sheet?.cssRules ?? [])].some((rule) => /** @type {CSSStyleRule} */ (rule).selectorText === selector);
  } catch {
    return true;
  }
}

/**
 * Per placeholder: its constructed sheet.
 * @type {WeakMap<Element, CSSStyleSheet>}
 */
const carriedSheets = new WeakMap();
/**
 * Every constructed sheet of ours, to tell them from a shadow root's other adopted sheets.
 * @type {WeakSet<CSSStyleSheet>}
 */
const ownSheets = new WeakSet();

/**
 * The sheet at `path` from the CSS text a script chunk carries (element/carried-styles.js, filled
 * by script/site/bundle-app.mjs), applied as a constructed sheet: a strict CSP's `style-src
 * 'self'` admits it (it refuses a <style> element's text), the script chunk comes under
 * `script-src 'self'` like the element's other chunks. `link` (a placeholder, or the link whose
 * sheet was not the element's, then disabled) keeps its place among the shadow root's children:
 * that order orders the adopted sheets (KaTeX's before the lesson's), as the links' order does.
 * Settles once the sheet applies (or the chunk failed: the lesson then shows unstyled, as with a
 * failed link, rather than hidden).
 * @param {HTMLLinkElement} link
 * @param {string} path
 * @returns {Promise<void>}
 */
function carriedSheet(link, path) {
  link.disabled = true;
  link.setAttribute('data-carried-sheet', path);
  const loaded = import('./carried-styles.js').then(({ CARRIED_STYLES }) => {
    const root = link.getRootNode();
    const text = /** @type {Record<string, string> | null} */ (CARRIED_STYLES)?.[path];
    if (text == null || !(root instanceof ShadowRoot)) return;
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(text);
    carriedSheets.set(link, sheet);
    ownSheets.add(sheet);
    const ordered = [...root.querySelectorAll('link[data-carried-sheet]')].map((p) => carriedSheets.get(p)).filter((s) => s !== undefined);
    root.adoptedStyleSheets = [...root.adoptedStyleSheets.filter((s) => !ownSheets.has(s)), ...ordered];
  });
  return loaded.catch(() => {});
}

/** @type {Promise<void> | null} */
let documentFonts = null;

/**
 * KaTeX's fonts, declared in the document once per page (FontFace objects, loaded when the math
 * uses them), from beside app.js (wherever a bundler put them) or under a host's asset base. A
 * host page that links katex/katex-fonts.css itself (data-prefill-trace-fonts) keeps its own.
 * @param {URL} base
 * @returns {Promise<void>}
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
 * @param {ShadowRoot} shadow
 * @param {Node | null} before
 * @param {URL} base
 * @returns {Promise<void>}
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

/**
 * Per shadow root: KaTeX's style sheet, once added.
 * @type {WeakMap<ShadowRoot, Promise<void>>}
 */
const katexStyles = new WeakMap();
