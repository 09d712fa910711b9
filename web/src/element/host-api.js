// The element's surface towards its host: the attributes it observes (each with a property of
// the same meaning), the values they take, and the events it dispatches. README.md
// ("Embedding in the Atlas") documents the same list; bindings/ carries its typings.

/** Observed attributes; a change after mount updates the element in place. */
export const ATTRIBUTES = Object.freeze([
  'lesson-src', // the lesson file (same origin), resolved against the page
  'view', // full | lesson | explorer
  'theme', // auto | light | dark (style.css does the rest)
  'header', // full | none: none hides the title, trail and Atlas link (style.css does it)
  'scenario', // the explorer's scenario as JSON text, the CLI's --scenario format
  'storage', // local | none
  'sync-url', // boolean: the element keeps the scenario in the page URL
  'asset-base', // folder of the built site (engine, chunks, styles, data)
  'equations-src', // an Atlas equation pack ({lessonId: [{latex, variables, text}]}), same origin
]);

/** Attributes whose change makes a new rendering (what is fetched changes). */
export const RELOADING = new Set(['lesson-src', 'view', 'storage', 'sync-url', 'asset-base', 'equations-src']);

export const VIEW_VALUES = Object.freeze(/** @type {const} */ (['full', 'lesson', 'explorer']));
export const THEME_VALUES = Object.freeze(/** @type {const} */ (['auto', 'light', 'dark']));
export const HEADER_VALUES = Object.freeze(/** @type {const} */ (['full', 'none']));
export const STORAGE_VALUES = Object.freeze(/** @type {const} */ (['local', 'none']));

/**
 * An enumerated attribute's value: the given one when allowed, else the first (the default).
 * @template {string} V
 * @param {unknown} value
 * @param {readonly V[]} allowed
 * @returns {V}
 */
export function enumValue(value, allowed) {
  const v = String(value ?? '').trim().toLowerCase();
  return allowed.find((a) => a === v) ?? allowed[0];
}

/**
 * Events, all bubbling and composed (they cross the shadow boundary and reach the document):
 *   prefill-trace-ready             {lessonId, view}        every shown part is drawn
 *   prefill-trace-error             {part, message}         one part failed (lesson, engine,
 *                                                           explorer, charts, scenario,
 *                                                           equations, asset-base)
 *   prefill-trace-scenario-change   {scenario, query}       the reader committed a change:
 *                                                           the scenario object, permalink query
 *   prefill-trace-answer            {questionKey, correct, answer}  a check was answered
 *   prefill-trace-progress-reset    {}                      the reader forgot every answer
 */
export const EVENTS = Object.freeze([
  'prefill-trace-ready',
  'prefill-trace-error',
  'prefill-trace-scenario-change',
  'prefill-trace-answer',
  'prefill-trace-progress-reset',
]);

/**
 * Dispatches event `name` (one of EVENTS) with `detail` from `element`.
 * @param {EventTarget} element
 * @param {string} name
 * @param {object} detail
 */
export function dispatch(element, name, detail) {
  element.dispatchEvent(new CustomEvent(name, { detail, bubbles: true, composed: true }));
}
