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

/** The folder app.js was loaded from: the root of the built site, unless a host says otherwise. */
// (A bundler that takes this module into its own build cannot know this URL: @vite-ignore.)
export const BUNDLE_BASE = new URL(/* @vite-ignore */ './', import.meta.url);

let documentAssetBase = null;

/**
 * The asset base every element uses unless its `asset-base` attribute names another:
 * `PrefillTraceLesson.assetBase` when set (resolved against the page), else BUNDLE_BASE.
 */
export function defaultAssetBase() {
  return documentAssetBase ?? BUNDLE_BASE;
}

/** Sets (or with null, clears) the document-wide asset base; relative values resolve against the page. */
export function setDefaultAssetBase(base) {
  documentAssetBase = base == null || base === '' ? null : folderUrl(base, 'PrefillTraceLesson.assetBase');
}

/** The schemes an address the element fetches from may have (asset-base, lesson-src, equations-src). */
export const FETCHED_SCHEMES = Object.freeze(['http:', 'https:']);

/** At most this much of a refused address is quoted in a message. */
const QUOTED_CHARS = 120;

/** `value` in quotes for a message: at most QUOTED_CHARS of it, and its length when longer. */
export function quoted(value) {
  const text = String(value);
  return text.length <= QUOTED_CHARS ? JSON.stringify(text) : `${JSON.stringify(text.slice(0, QUOTED_CHARS))}… (${text.length} characters)`;
}

/**
 * `value` (an attribute's text, resolved against the page) as a URL the element may fetch
 * from, or a TypeError naming `what` (the attribute): an address the URL parser refuses
 * ("http://[") or one of a scheme that names no file (javascript:, data:, blob:, about:,
 * mailto:, …). Checked before anything is built from it: such a base made `new URL(path,
 * base)` throw deep inside a rendering.
 */
export function fetchableUrl(value, what) {
  const text = String(value);
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
 */
export function folderUrl(base, what = 'asset-base') {
  const url = fetchableUrl(base, what);
  if (!url.pathname.endsWith('/')) url.pathname += '/';
  url.search = '';
  url.hash = '';
  return url;
}

/** An asset of the built site, as an absolute URL, under `base` (default: defaultAssetBase()). */
export function assetUrl(path, base = defaultAssetBase()) {
  return new URL(path, base);
}

/** Data files, relative to app.js; build-site copies lesson-data/ byte for byte. */
export const DEFAULT_LESSON_PATH = 'lesson-data/prefill-resource-trace-a76d037833bd69f7.json';
export const EQUATIONS_PATH = 'lesson-data/prefill-resource-trace.equations.json';
export const RELATED_LESSONS_PATH = 'lesson-data/related-lessons.json';

/**
 * Modules of the built site that app.js imports when it first needs them (script/build-site
 * bundles each alone): the explorer's charts with d3 (charts/index.js), and KaTeX. Their built
 * names carry a content hash, which build-site gives app.js (esbuild --define); unbundled
 * sources fall back to the plain names.
 */
/* global PREFILL_TRACE_CHARTS_MODULE, PREFILL_TRACE_KATEX_MODULE */
export const CHARTS_MODULE =
  typeof PREFILL_TRACE_CHARTS_MODULE === 'string' ? PREFILL_TRACE_CHARTS_MODULE : 'chunks/charts.js';
/** The serving simulation's Worker (web/src/under-load/worker.js), a classic script: build-site bundles it. */
export const SERVING_WORKER = 'chunks/serving-worker.js';
export const KATEX_MODULE =
  typeof PREFILL_TRACE_KATEX_MODULE === 'string' ? PREFILL_TRACE_KATEX_MODULE : 'chunks/katex.js';

/** The Emscripten UMD loader, its WebAssembly module, and the folder holding both. */
export const ENGINE_DIR = 'wasm/';
export const ENGINE_SCRIPT = 'prefill_trace.js';
export const ENGINE_WASM = 'prefill_trace.wasm';
export const ENGINE_GLOBAL = 'PrefillTrace';

/** The lesson's style sheet, linked inside the element's shadow root. */
export const SHADOW_STYLESHEET = 'style.css';

/**
 * KaTeX's style sheet, linked inside the shadow root before SHADOW_STYLESHEET (whose rules
 * refine it) when the first equation is typeset; the math is far below the fold.
 */
export const KATEX_STYLESHEET = 'katex/katex.min.css';

/**
 * KaTeX's @font-face rules, added once to the host document with KATEX_STYLESHEET: Chromium
 * ignores @font-face inside a shadow root, so the fonts must be declared at document level to
 * render the math. The sheet holds only @font-face rules for KaTeX_* families and cannot
 * restyle the host.
 */
export const DOCUMENT_FONT_STYLESHEET = 'katex/katex-fonts.css';

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
