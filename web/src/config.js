// Where the lesson finds its data and which Atlas release it reproduces. One place for these
// facts, so the view never hard-codes a path or a version.
//
// Every asset is resolved against an asset base: by default the folder of the bundle itself
// (app.js, via import.meta.url), not the host page, so an embedding page needs only
// `<script type="module" src=".../app.js">` and the `<prefill-trace-lesson>` element, wherever
// it lives. A host that bundles app.js into its own build names the folder holding the built
// site instead: `PrefillTraceLesson.assetBase = '/prefill-trace/'` (every element) or the
// element's `asset-base` attribute (that element; see element.js).

/** The Atlas release whose published lesson this page renders. */
export const ATLAS_VERSION = '1.3.0';

/** Public Atlas addresses shown as links (never fetched: the page loads nothing off-origin). */
export const ATLAS_EXPLORE_URL = 'https://semiaifoundry.com/ai-atlas/#';
export const ATLAS_LICENSES_URL = 'https://semiaifoundry.com/ai-atlas/licenses.html';

/**
 * The files the element loads from its own folder, each written as
 * `new URL('<literal>', import.meta.url)` relative to app.js in the built element (esbuild keeps
 * the expression as written): a bundler that takes app.js into its build (webpack 5, Vite, Parcel,
 * Next.js) sees the literal, emits the file and rewrites the address, so a host needs no copy
 * step and no loader configuration. Unbundled, each resolves next to app.js. (A bare
 * `import.meta.url`, or a folder such as './', would be baked in as the build machine's path by
 * webpack.) The lesson data is not among them: app.js carries it (element/bundled-data.js), so no
 * bundler turns it into a JS module (Parcel) or a `data:` URL (Vite under 4 KiB).
 */
const BUNDLED = {
  'style.css': () => new URL('./style.css', import.meta.url),
  'katex/katex.min.css': () => new URL('./katex/katex.min.css', import.meta.url),
  'chunks/serving-worker.js': () => new URL('./chunks/serving-worker.js', import.meta.url),
  // The .wasm the serving Worker fetches (the ES-module engine's own, the same file: a bundler
  // emits it once).
  'wasm/prefill_trace.wasm': () => new URL('./wasm/prefill_trace.wasm', import.meta.url),
};

/**
 * A bundler's rewrite of `new URL(…, import.meta.url)` as an absolute URL. Next.js (webpack's
 * `url: 'relative'` and Turbopack) rewrites it to a URL-like object whose href is a path
 * ("/_next/static/media/style.….css"): a relative address the browser resolves against the
 * document, as done here. (Used as a base, such an object threw "Invalid base URL".)
 * @param {string | URL | {href: string}} url
 */
export function absoluteUrl(url) {
  return new URL(String(url), globalThis.document?.baseURI);
}

/** @type {URL|null} */
let bundleBase = null;

/**
 * The folder app.js was loaded from (the folder of its style sheet, wherever a bundler put it);
 * computed when first asked, in the browser (under Node, where a server imports the element,
 * a relative rewrite has nothing to resolve against).
 */
function bundleBaseUrl() {
  bundleBase ??= new URL('.', absoluteUrl(BUNDLED['style.css']()));
  return bundleBase;
}

/** @type {URL|null} */
let documentAssetBase = null;

/**
 * The asset base every element uses unless its `asset-base` attribute names another:
 * `PrefillTraceLesson.assetBase` when set (resolved against the page), else app.js's folder.
 */
export function defaultAssetBase() {
  return documentAssetBase ?? bundleBaseUrl();
}

/**
 * True when `base` is app.js's own folder: its files come from BUNDLED, as the bundler placed them.
 * @param {URL} base
 */
export function isBundledBase(base) {
  return base.href === bundleBaseUrl().href;
}

/**
 * Sets (or with null, clears) the document-wide asset base; relative values resolve against the page.
 * @param {unknown} base
 */
export function setDefaultAssetBase(base) {
  documentAssetBase = base == null || base === '' ? null : folderUrl(base, 'PrefillTraceLesson.assetBase');
}

/** The schemes an address the element fetches from may have (asset-base, lesson-src, equations-src). */
export const FETCHED_SCHEMES = Object.freeze(['http:', 'https:']);

/**
 * The longest address the element fetches from (asset-base, lesson-src, equations-src, ?lesson=):
 * HTTP servers refuse longer request lines (nginx's default buffer and Apache's LimitRequestLine
 * are 8 KB), so a longer one names nothing a server would send.
 */
export const MAX_ADDRESS_CHARS = 8192;

/** At most this much of a refused address is quoted in a message. */
const QUOTED_CHARS = 120;

/**
 * `value` in quotes for a message: at most QUOTED_CHARS of it, and its length when longer.
 * @param {unknown} value
 */
export function quoted(value) {
  const text = String(value);
  return text.length <= QUOTED_CHARS ? JSON.stringify(text) : `${JSON.stringify(text.slice(0, QUOTED_CHARS))}… (${text.length} characters)`;
}

/**
 * A parsed address (a URL's pathname or href) for a message: whole when short, else its first
 * QUOTED_CHARS characters and its length. The URL serializer has percent-encoded its control
 * characters, spaces and quotes, so it is one line of printable text either way. A 1 MB
 * lesson-src put 1,055,268 characters into the element's text (issue 33, W11).
 * @param {string} text
 */
export function addressText(text) {
  return text.length <= QUOTED_CHARS ? text : `${text.slice(0, QUOTED_CHARS)}… (${text.length} characters)`;
}

/**
 * `value` (an attribute's text, resolved against the page) as a URL the element may fetch
 * from, or a TypeError naming `what` (the attribute): an address the URL parser refuses
 * ("http://[") or one of a scheme that names no file (javascript:, data:, blob:, about:,
 * mailto:, …). Checked before anything is built from it: such a base made `new URL(path,
 * base)` throw deep inside a rendering.
 * @param {unknown} value
 * @param {string} what
 */
export function fetchableUrl(value, what) {
  const text = String(value);
  // Before parsing: a 400,000-character equations-src took a 35 s task and came back whole in a
  // 400,011-character message (issue 33, W11).
  if (text.length > MAX_ADDRESS_CHARS) {
    throw new TypeError(`${what}: ${quoted(text)} is longer than the ${MAX_ADDRESS_CHARS} characters an address may have`);
  }
  if (!URL.canParse(text, document.baseURI)) throw new TypeError(`${what}: ${quoted(text)} is not a URL`);
  const url = new URL(text, document.baseURI);
  if (!FETCHED_SCHEMES.includes(url.protocol)) {
    throw new TypeError(`${what}: ${quoted(text)} is a ${url.protocol} address; only http: and https: addresses are loaded`);
  }
  return url;
}

/**
 * `base` as an absolute folder URL (a trailing slash added), resolved against the page; a
 * TypeError naming `what` when it is not an http(s) address (fetchableUrl).
 * @param {unknown} base
 * @param {string} [what]
 */
export function folderUrl(base, what = 'asset-base') {
  const url = fetchableUrl(base, what);
  if (!url.pathname.endsWith('/')) url.pathname += '/';
  url.search = '';
  url.hash = '';
  return url;
}

/**
 * An asset of the built site, as an absolute URL, under `base` (default: defaultAssetBase()):
 * from BUNDLED when `base` is app.js's own folder, so a bundler's address wins.
 * @param {string} path
 * @param {URL} [base]
 */
export function assetUrl(path, base = defaultAssetBase()) {
  if (isBundledBase(base) && Object.hasOwn(BUNDLED, path)) return absoluteUrl(BUNDLED[/** @type {keyof typeof BUNDLED} */ (path)]());
  return new URL(path, base);
}

/**
 * Data files, relative to app.js; build-site copies lesson-data/ byte for byte, and app.js
 * carries the three (element/bundled-data.js) for its own folder.
 */
export const DEFAULT_LESSON_PATH = 'lesson-data/prefill-resource-trace-a76d037833bd69f7.json';
export const EQUATIONS_PATH = 'lesson-data/prefill-resource-trace.equations.json';
export const RELATED_LESSONS_PATH = 'lesson-data/related-lessons.json';

/** The serving simulation's Worker (web/src/under-load/worker.js), a classic script: build-site bundles it. */
export const SERVING_WORKER = 'chunks/serving-worker.js';

/**
 * The folder of the engine's .wasm under an asset base a host names (engine.js; without one the
 * .wasm is where the bundler or the package put it).
 */
export const ENGINE_DIR = 'wasm/';
export const ENGINE_WASM = 'prefill_trace.wasm';

/** The lesson's style sheet, linked inside the element's shadow root. */
export const SHADOW_STYLESHEET = 'style.css';

/**
 * KaTeX's style sheet, linked inside the shadow root before SHADOW_STYLESHEET (whose rules
 * refine it) when the first equation is typeset; the math is far below the fold.
 */
export const KATEX_STYLESHEET = 'katex/katex.min.css';

/**
 * The lesson whose trace the explorer computes: the explorer and the generated checks are shown
 * only with this lesson (another lesson renders as a lesson alone).
 */
export const EXPLORER_LESSON_ID = 'prefill-resource-trace';

/**
 * The lesson file's fetch: the longest it may take (headers and body), and the most bytes read
 * before it is refused (the engine's own limit on lesson text, src/json_path.hpp). A host or a
 * test may change them through PrefillTraceLesson.lessonTimeoutMs / .maxLessonBytes.
 */
export const LESSON_TIMEOUT_MS = 15_000;
export const MAX_LESSON_BYTES = 1 << 20;

/**
 * The most bytes read of a companion file (an equation pack, the lesson names): the lesson
 * file's own limit (the bundled pack is 852 bytes); a larger body is cancelled.
 */
export const MAX_COMPANION_BYTES = 1 << 20;

/** localStorage key of saved quiz progress (see progress.js). */
export const PROGRESS_STORAGE_KEY = 'prefill-trace:progress:v1';
