// What one rendering of <prefill-trace-lesson> loads, where it places it and in what order,
// for each view: data only. The mount (mount.js) runs a view's steps in order, each through
// one helper that begins the step's task (explorer/scheduling.js nextTask) and stops the run
// once the rendering is disposed of. Each step names a part and one of its two actions:
//   load   starts the part's requests (nothing is awaited: the rest runs while they arrive);
//   place  waits for what the part needs and puts it in the shadow root, or returns the
//          rendering's outcome when the part ends it (an engine that cannot start, a lesson
//          that cannot be shown, the last part drawn).
// A step without a part only begins its task: the explorer view keeps the lesson views'
// cadence, so each later step starts in the same task as there.
//
// The order is the start's (docs/performance.md, tests/browser/start-tasks.test.mjs): the
// engine first (it downloads and compiles off the main thread while the rest runs), then the
// lesson's requests, then — once the engine is ready — the explorer, which draws while the
// lesson file may still be arriving, then the lesson around it, then KaTeX (below the first
// screen, after the first trace).

import { DEFAULTS, scenarioJson } from '../scenario.js';

/** @typedef {import('../engine.js').Engine} Engine */

/**
 * V8 compiles the engine's functions on their first call, on the main thread. The first trace
 * of the default scenario reads the built-in presets and compiles the per-change path; the
 * presets' listing then compiles only their JSON writer: tasks of their own. The per-change
 * path is compiled in two: a scenario the engine rejects after reading it (a prompt of -1
 * tokens: the reader, the presets, the checks), then the default one (the trace and its
 * figures) — 49-69 ms at 4x in one task, 34-38 and 6-25 ms in two.
 */
export const ENGINE_WARM_UP = Object.freeze(/** @type {[string, (engine: Engine) => unknown][]} */ ([
  ['engine-warm', (/** @type {Engine} */ engine) => engine.traceFigures(scenarioJson(/** @type {import('../scenario.js').ScenarioState} */ ({ ...DEFAULTS, prompt: -1 })))],
  ['engine-warm-trace', (/** @type {Engine} */ engine) => engine.traceFigures(scenarioJson(/** @type {import('../scenario.js').ScenarioState} */ (DEFAULTS)))],
  // The trace's leaves (the step cards' labels and units), which the engine keeps: read here,
  // they are not in explorer-build's task (10-35 ms of it unthrottled, docs/performance.md).
  ['engine-leaves', (/** @type {Engine} */ engine) => engine.traceLeaves(scenarioJson(/** @type {import('../scenario.js').ScenarioState} */ (DEFAULTS)))],
]));

/**
 * @typedef {object} Step
 * @property {string|null} task   the mark of the task the step begins (null: it goes on in the current one)
 * @property {'engine'|'lesson'|'explorer'|'equations'|null} part
 * @property {'load'|'place'|null} action
 * @property {'loading'|null} [lead]  explorer only: what heads it until the lesson is drawn
 *   ('loading': the lesson's loading note; null: nothing, the explorer stands alone)
 * @property {boolean} [refuseOtherLesson]  explorer only: refuse a lesson-src that names
 *   another lesson (the explorer view, which does not fetch the lesson to find out)
 * @property {boolean} [last]  the step whose outcome ends the rendering
 */

/**
 * @param {string|null} task
 * @param {Step['part']} part
 * @param {Step['action']} action
 * @param {Partial<Step>} [extra]
 * @returns {Step}
 */
const step = (task, part, action, extra = {}) => Object.freeze({ task, part, action, ...extra });

/** @type {Readonly<Record<'full'|'lesson'|'explorer', readonly Step[]>>} */
export const PLANS = Object.freeze({
  // The published lesson with the explorer after "The mechanism" (when the lesson is this one).
  full: Object.freeze([
    step('engine-fetch', 'engine', 'load'),
    step('fetch-lesson', 'lesson', 'load'),
    step(null, 'engine', 'place'),
    step(null, 'explorer', 'place', { lead: 'loading', refuseOtherLesson: false }),
    step(null, 'lesson', 'place'),
    step(null, 'equations', 'place', { last: true }),
  ]),
  // The published lesson alone: no explorer, no charts module.
  lesson: Object.freeze([
    step('engine-fetch', 'engine', 'load'),
    step('fetch-lesson', 'lesson', 'load'),
    step(null, 'engine', 'place'),
    step(null, 'lesson', 'place'),
    step(null, 'equations', 'place', { last: true }),
  ]),
  // The explorer and its checks: the lesson file, the equations and KaTeX are not fetched.
  explorer: Object.freeze([
    step('engine-fetch', 'engine', 'load'),
    step('fetch-lesson', null, null),
    step(null, 'engine', 'place'),
    step(null, 'explorer', 'place', { lead: null, refuseOtherLesson: true, last: true }),
  ]),
});
