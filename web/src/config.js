// Where the page finds its data and which Atlas release it reproduces. One place for these
// facts, so the view never hard-codes a path or a version.

/** The Atlas release whose published lesson this page renders. */
export const ATLAS_VERSION = '1.3.0';

/** Public Atlas addresses shown as links (never fetched: the page loads nothing off-origin). */
export const ATLAS_EXPLORE_URL = 'https://semiaifoundry.com/ai-atlas/#';
export const ATLAS_LICENSES_URL = 'https://semiaifoundry.com/ai-atlas/licenses.html';

/** Data files, relative to the page; build-site copies lesson-data/ byte for byte. */
export const DEFAULT_LESSON_PATH = 'lesson-data/prefill-resource-trace-a76d037833bd69f7.json';
export const EQUATIONS_PATH = 'lesson-data/prefill-resource-trace.equations.json';
export const RELATED_LESSONS_PATH = 'lesson-data/related-lessons.json';

/** The Emscripten UMD loader and the folder holding it and prefill_trace.wasm. */
export const ENGINE_DIR = 'wasm/';
export const ENGINE_SCRIPT = 'prefill_trace.js';
export const ENGINE_GLOBAL = 'PrefillTrace';
