// @ts-check
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

/** Where the page's runs come from: the page's message (under-load.js). @typedef {{type: 'run', id: number, wasm: string, jobs: string[]}} RunMessage */
/** @param {MessageEvent<RunMessage | null>} event */
self.onmessage = async (event) => {
  const message = event.data;
  if (message?.type !== 'run') return;
  let module;
  try {
    module = await load(message.wasm);
  } catch (error) {
    self.postMessage({ type: 'capability', ok: false, error: `the engine could not load in the worker: ${/** @type {Error | null} */ (error)?.message ?? error}` });
    return;
  }
  if (typeof module.simulateServing !== 'function') {
    self.postMessage({ type: 'capability', ok: false, error: 'this build of the engine has no serving simulation' });
    return;
  }
  self.postMessage({ type: 'capability', ok: true });
  for (const [index, json] of message.jobs.entries()) {
    let reply;
    try {
      const result = module.simulateServing(json);
      reply = result.ok
        ? { ok: true, error: '', report: servingSummary(JSON.parse(result.json)) }
        : { ok: false, error: String(result.error), report: null };
    } catch (error) {
      reply = { ok: false, error: `the engine failed while simulating: ${/** @type {Error | null} */ (error)?.message ?? error}`, report: null };
    }
    if (aborted) {
      engine = null;
      reply = { ok: false, error: ABORTED, report: null };
    }
    self.postMessage({ type: 'result', id: message.id, index, ...reply });
    if (!reply.ok) break;
  }
  self.postMessage({ type: 'done', id: message.id });
};
