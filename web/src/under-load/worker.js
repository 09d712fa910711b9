// The serving simulation off the page's main thread (a classic Worker, bundled by
// script/build-site as chunks/serving-worker.js). It runs each job — a scenario JSON with a
// `serving` object, the engine's `simulateServing` (docs/serving.md) — and posts back, per job,
// only what the page draws: the report is parsed here, so the page never parses a large JSON
// text or waits on a simulation.
//
// The engine's JavaScript is bundled into this chunk (the package's ES-module loader, the same
// build as the page's), so the Worker fetches one file only: the .wasm, at the address the page
// hands it. The page finds that address as the element finds its own engine (config.js:
// `assetUrl('wasm/prefill_trace.wasm', base)`, the bundler's address when no asset base is
// named), so the Worker works wherever the element's engine does, bundled or not.
//
// Messages in: {type: 'run', id, wasm: <address of the .wasm>, jobs: [scenario JSON text]}.
// Out: {type: 'capability', ok, error} once the engine is loaded (or not), then
// {type: 'result', id, index, ok, error, report} per job (index into jobs), then
// {type: 'done', id}. A job refused or failed ends the run: its result is the last one before
// 'done' (the run's remaining jobs are not simulated). An engine that aborted (its WebAssembly
// memory reached the 128 MB cap) is discarded: its result says so, and the next run loads a
// new instance (issue 33, item 2: before, every later run said "simulateServing: Aborted()").
// The guided investigations' placement search (investigations/plan-runner.js) comes as
// {type: 'plan', id, wasm, scenario: <JSON text>, devices}: after the capability, one
// {type: 'plan', id, ok, error, plan} with the engine's `planServing` document, parsed here.
// {type: 'load', wasm} only loads the engine (and answers with the capability): the page sends it
// when the reader opens that investigation, so "Show me" does not wait for the load.

/* eslint-env worker */

import PrefillTrace from 'prefill-trace';
import { servingSummary } from './summary.js';

/** @type {Promise<import('prefill-trace').PrefillTraceModule> | null} */
let engine = null;
/** Whether the current instance aborted (the glue's `onAbort` hook). */
let aborted = false;
const ABORTED =
  'the engine aborted (most likely its WebAssembly memory reached the 128 MB cap) and was discarded; the next run starts a new one';

/** @param {string} wasm  the engine's .wasm URL */
async function load(wasm) {
  if (!engine) {
    aborted = false;
    engine = PrefillTrace({
      locateFile: () => wasm,
      onAbort: () => {
        aborted = true;
      },
    });
  }
  try {
    return await engine;
  } catch (error) {
    engine = null; // a later run tries again
    throw error;
  }
}

/** Where the page's runs come from: the page's message (under-load.js, plan-runner.js). @typedef {{type: 'run', id: number, wasm: string, jobs: string[]} | {type: 'plan', id: number, wasm: string, scenario: string, devices: number} | {type: 'load', wasm: string}} RunMessage */
/** @param {MessageEvent<RunMessage | null>} event */
self.onmessage = async (event) => {
  const message = event.data;
  if (message?.type !== 'run' && message?.type !== 'plan' && message?.type !== 'load') return;
  let module;
  try {
    module = await load(message.wasm);
  } catch (error) {
    self.postMessage({ type: 'capability', ok: false, error: `the engine could not load in the worker: ${/** @type {Error | null} */ (error)?.message ?? error}` });
    return;
  }
  const call = message.type === 'run' ? 'simulateServing' : 'planServing';
  if (typeof module[call] !== 'function') {
    self.postMessage({ type: 'capability', ok: false, error: `this build of the engine has no ${message.type === 'run' ? 'serving simulation' : 'placement search'}` });
    return;
  }
  self.postMessage({ type: 'capability', ok: true });
  if (message.type === 'load') return;
  if (message.type === 'plan') {
    const { value: plan, ...reply } = answer(() => module.planServing(message.scenario, message.devices), 'planning', JSON.parse);
    self.postMessage({ type: 'plan', id: message.id, ...reply, plan });
    return;
  }
  for (const [index, json] of message.jobs.entries()) {
    const { value: report, ...reply } = answer(() => module.simulateServing(json), 'simulating', (text) => servingSummary(JSON.parse(text)));
    self.postMessage({ type: 'result', id: message.id, index, ...reply, report });
    if (!reply.ok) break;
  }
  self.postMessage({ type: 'done', id: message.id });
};

/**
 * One engine call's reply: `{ok, error, value}`, `value` what `read` makes of its JSON
 * (null when refused). An instance that aborted in the call is discarded (the next message loads
 * a new one) and its reply says so.
 * @param {() => import('prefill-trace').JsonResult} call
 * @param {string} what
 * @param {(json: string) => unknown} read
 * @returns {{ok: boolean, error: string, value: unknown}}
 */
function answer(call, what, read) {
  let reply;
  try {
    const result = call();
    reply = result.ok ? { ok: true, error: '', value: read(result.json) } : { ok: false, error: String(result.error), value: null };
  } catch (error) {
    reply = { ok: false, error: `the engine failed while ${what}: ${/** @type {Error | null} */ (error)?.message ?? error}`, value: null };
  }
  if (aborted) {
    engine = null;
    reply = { ok: false, error: ABORTED, value: null };
  }
  return reply;
}
