// "Under load": the explorer's scenario served to many requests under the engine's three
// schedulers (prefill first, chunked prefill, disaggregated prefill and decode; docs/serving.md),
// simulated in a Worker (worker.js) so the page never waits on it. The reader sets the arrival
// rate, the output length and the two service-level objectives; one run simulates, for each
// scheduler, a minute of arrivals, an attainment sweep over rates and the goodput search, and the
// pictures (charts/serving.js, serving-tokens.js, serving-kv.js) show the percentiles, attainment
// against rate, a few requests' tokens, the K/V memory in use and the minute's timeline. Nothing is simulated until the reader opens the part and presses Run; nothing is
// drawn that the engine did not report.
//
// The part exists only when the engine has the simulation (`simulateServing`): an engine
// without it shows no such part rather than an empty one.

import { ENGINE_DIR, ENGINE_WASM, SERVING_WORKER, assetUrl } from '../config.js';
import { h, setText } from '../dom.js';
import * as fmt from '../format.js';
import { readDecimal, scenarioObject } from '../scenario.js';
import { FIRST_BUDGET, STATUS_MS, advanceInSlices, nextTask, onPageStatus, warmServing, yieldToPage } from './on-page.js';
import { servingSummary } from './summary.js';
import { TRUSTED_TYPES_POLICY, policyRefused, workerScriptUrl } from './trusted-url.js';

/** @typedef {import('./summary.js').ServingFigures} ServingFigures */
/** @typedef {import('../charts/serving.js').ServingRun} ServingRun */
/** The reader's values: rate (requests/s), output tokens, and the objectives (seconds). @typedef {{rate: number, output: number, ttft: number, tpot: number}} Values */
/** One engine run: its scheduler, what it is for ('base', 'sweep-<i>', 'goodput'), its rate and scenario JSON. @typedef {{policy: string, key: string, rate: number, json: string}} Job */
/** @typedef {Job & {report: ServingFigures}} JobResult */
/**
 * A run's outcome: the assembled runs and where they ran, the engine's refusal, or why no Worker
 * could run (the page then runs them itself).
 * @typedef {{runs?: ServingRun[], ranIn?: string, error?: string, noWorker?: string}} Outcome
 */
/** What the Worker posts (worker.js). @typedef {{type: 'capability' | 'result' | 'done', ok?: boolean, error?: string, id?: number, index?: number, report?: ServingFigures}} WorkerMessage */

const POLICY_IDS = ['prefill-first', 'chunked', 'disaggregated'];
/**
 * The serving keys the reader sets, in the form's order; each control's label and hint are the
 * engine's (servingFields(): src/serving/serving_fields.hpp; tests/js/serving-fields.test.mjs).
 */
export const SERVING_CONTROLS = ['rate', 'output', 'ttft_slo', 'tpot_slo'];
/** The sweep's rates, as fractions of the prefill's saturation rate (the trace's λ at ρ = 1). */
const SWEEP_FRACTIONS = [0.05, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 1];
/** One simulated minute of arrivals. */
const ARRIVAL_SECONDS = 60;
/** The scheduler whose K/V the picture draws paged against reserve (charts/serving-kv.js). */
const KV_POLICY = 'prefill-first';
/** Paged K/V's default `gpu_memory_utilization` (docs/serving.md, "K/V memory"): the reserve
 * twin is given it, since reserve's own default (1, as before paging) would hold more. */
const PAGED_MEMORY_SHARE = 0.9;
const MAX_REQUESTS = 2000;

export class UnderLoad {
  #explorer;
  #base;
  /** @type {Worker | null} */
  #worker = null;
  #run = 0;
  /** @type {Record<string, import('../charts/common.js').ChartPanel<import('../charts/serving.js').ServingModel>> | null} */
  #charts = null;
  #built = false;
  /** @type {number | null} */
  #saturation = null;
  /** Why the Worker could not run, once it failed: later runs go to the page directly. */
  /** @type {string | null} */
  #workerFailure = null;

  /**
   * @param {object} options
   * @param {import('../explorer/explorer.js').Explorer} options.explorer
   * @param {URL} [options.assetBase]
   */
  constructor({ explorer, assetBase }) {
    this.#explorer = explorer;
    this.#base = assetUrl('', assetBase);
    // Made by #build, when the reader first opens the part.
    /** @type {HTMLInputElement} */ this.rate;
    /** @type {Record<keyof Values, HTMLInputElement>} */ this.inputs;
    /** @type {HTMLButtonElement} */ this.runButton;
    /** @type {HTMLElement} */ this.status;
    /** @type {HTMLElement} */ this.whereHint;
    /** @type {HTMLElement} */ this.reading;
    /** @type {HTMLElement} */ this.chartsBox;
    this.body = h('div', { class: 'under-load-body' });
    this.element = /** @type {HTMLDetailsElement} */ (h(
      'details',
      { class: 'explorer-block under-load', part: 'under-load', id: 'under-load' },
      h('summary', {}, h('h3', { class: 'under-load-title' }, 'Under load: many requests, three schedulers')),
      this.body,
    ));
    this.element.addEventListener('toggle', () => {
      if (this.element.open) this.#build();
    });
  }

  /**
   * The explorer shows a new trace: the rate's starting value follows its saturation rate.
   * @param {import('prefill-trace').TraceDocument | null | undefined} trace
   */
  update(trace) {
    this.#saturation = trace?.steps[4]?.facts?.saturation_arrival_rate ?? null;
    if (this.#built && this.rate && !this.rateEdited) this.rate.value = String(this.#defaultRate());
  }

  /**
   * The element is gone: the Worker ends, and a run on the page stops before its next job (its
   * run id is no longer the current one). Without the id bump, a run on the page (no Worker: a
   * CSP's `worker-src 'none'`) went on simulating for the removed element (issue 33, L2).
   */
  dispose() {
    this.#run += 1;
    this.#worker?.terminate();
    this.#worker = null;
  }

  #defaultRate() {
    return this.#saturation !== null && this.#saturation > 0 ? Number((this.#saturation * 0.3).toPrecision(3)) : 1;
  }

  /**
   * A control for serving key `name`, labelled as the engine's field table labels it.
   * @param {string} id
   * @param {string} name
   * @param {number} value
   */
  #field(id, name, value) {
    const row = this.#explorer.engine.servingFields?.()?.serving.find((f) => f.name === name);
    const text = row?.label || name;
    const hint = row?.hint ?? '';
    const input = /** @type {HTMLInputElement} */ (h('input', { id, type: 'text', inputmode: 'decimal', value: String(value), autocomplete: 'off', 'aria-describedby': `${id}-hint` }));
    const wrap = h('div', { class: 'under-load-field' }, h('label', { for: id }, text), input, h('p', { class: 'hint', id: `${id}-hint` }, hint));
    return { input, wrap };
  }

  #build() {
    if (this.#built) return;
    this.#built = true;
    // The page's starting values (the engine's table has none for these: they are the run's).
    /** @type {Record<string, number>} */
    const start = { rate: this.#defaultRate(), output: 256, ttft_slo: 1, tpot_slo: 0.05 };
    const [rate, output, ttft, tpot] = SERVING_CONTROLS.map((name) => this.#field(`load-${name.replace('_', '-')}`, name, start[name]));
    this.rate = rate.input;
    this.rateEdited = false;
    rate.input.addEventListener('input', () => {
      this.rateEdited = true;
    });
    this.inputs = { rate: rate.input, output: output.input, ttft: ttft.input, tpot: tpot.input };
    this.whereHint = h('span', { class: 'under-load-where' }, 'Simulated by the engine, in a background thread where the browser and the page allow one.');
    this.runButton = /** @type {HTMLButtonElement} */ (h('button', { type: 'submit', class: 'button' }, 'Run the simulation'));
    this.status = h('p', { class: 'under-load-status', role: 'status', 'aria-live': 'polite' });
    this.reading = h('p', { class: 'under-load-reading' });
    this.chartsBox = h('div', { class: 'charts under-load-charts' });
    const form = h(
      'form',
      { class: 'under-load-form', novalidate: true },
      h(
        'p',
        { class: 'hint' },
        'The prompt, model, accelerator and precision are the explorer’s. Prefill first runs each prompt whole before any decode; ',
        'chunked prefill mixes prompt chunks with other requests’ decode steps; disaggregated runs prefill and decode on separate devices ',
        '(one of each here: twice the devices of the others). Every run is one simulated minute of arrivals; the goodput search ',
        'runs as many requests as a minute at the prefill’s saturation rate. ',
        this.whereHint,
      ),
      h('div', { class: 'under-load-fields' }, rate.wrap, output.wrap, ttft.wrap, tpot.wrap),
      this.runButton,
    );
    form.addEventListener('submit', (event) => {
      event.preventDefault();
      this.#start();
    });
    this.body.append(form, this.status, this.reading, this.chartsBox);
    // Once open, in idle time: the Worker started, or the page's engine warmed up (#prepare).
    if (typeof requestIdleCallback === 'function') requestIdleCallback(() => this.#prepare(), { timeout: 2000 });
    else setTimeout(() => this.#prepare(), 200);
  }

  /**
   * Before the first run: the Worker started (its script loads while the reader fills the form);
   * where none can run, the page's engine warmed up with each scheduler's first job cut to a few
   * requests (on-page.js warmServing), so the first run on the page has no compilation in its slices.
   */
  #prepare() {
    if (this.#run > 0) return; // a run (or the element's removal) came first
    const started = this.#workerFailure ? null : this.#startWorker();
    if (!started?.worker) {
      this.#workerFailure ??= started?.noWorker ?? null;
      this.#warmUp();
      return;
    }
    const worker = started.worker;
    // Replaced by #inWorker's when a run starts first; a script refused before then is known here.
    worker.onerror = (event) => {
      event.preventDefault?.();
      worker.terminate();
      if (this.#worker === worker) this.#worker = null;
      this.#workerFailure = workerErrorWords(event);
      this.#warmUp();
    };
  }

  /** Each scheduler's base run of the form's values, with 8 requests, through the page's engine once. */
  #warmUp() {
    const read = this.#read();
    if (this.#run > 0 || !this.#explorer.engine.hasServingSlices?.() || !read.values) return;
    const jobs = this.#jobs(read.values)
      .filter((job) => job.key === 'base')
      .map((job) => {
        const scenario = JSON.parse(job.json);
        scenario.serving.requests = 8;
        return JSON.stringify(scenario);
      });
    warmServing(this.#explorer.engine, jobs, () => this.#run === 0);
  }

  /** @returns {{values: Values, error?: undefined} | {error: string, values?: undefined}} */
  #read() {
    /** @type {Record<string, number>} */
    const values = {};
    for (const [key, input] of Object.entries(this.inputs)) {
      const value = readDecimal(input.value);
      if (value === null || !(value > 0)) {
        const name = input.labels?.[0]?.textContent ?? key;
        return { error: `${name} must be a number above 0.` };
      }
      values[key] = value;
    }
    if (!Number.isInteger(values.output)) return { error: 'Output tokens per request must be a whole number.' };
    return { values: /** @type {Values} */ (values) };
  }

  /**
   * The runs, per scheduler: the reader's rate (one minute of arrivals: the percentiles and the
   * timeline); each sweep rate, a minute of its own arrivals (attainment against rate); and the
   * goodput search, with as many requests as a minute at the prefill's saturation rate, started
   * at half of it. A fixed, small request count would not do for the last two: the engine's
   * search keeps the count while it raises the rate, and a burst of 30 requests meets a 1 s
   * objective at any rate (its "goodput" then doubles without end).
   */
  /** @param {Values} values @returns {Job[]} */
  #jobs({ rate, output, ttft, tpot }) {
    const base = scenarioObject(this.#explorer.state);
    base.arrival_rate = 0;
    base.batch = 1;
    const saturation = this.#saturation !== null && this.#saturation > 0 ? this.#saturation : rate / 0.3;
    const sweep = SWEEP_FRACTIONS.map((f) => Number((saturation * f).toPrecision(3)));
    const minute = (/** @type {number} */ r, least = 20) => Math.min(MAX_REQUESTS, Math.max(least, Math.ceil(r * ARRIVAL_SECONDS)));
    /** @type {(policy: string, key: string, serving: {rate: number} & Record<string, unknown>) => Job} */
    const job = (policy, key, serving) => ({
      policy,
      key,
      rate: serving.rate,
      json: JSON.stringify({
        ...base,
        serving: { policy, seed: 1, prompt: base.prompt_tokens, output, ttft_slo: ttft, tpot_slo: tpot, timeline_points: 0, ...serving },
      }),
    });
    return POLICY_IDS.flatMap((policy) => [
      // The base run also returns four requests' every token time (the token picture).
      job(policy, 'base', { rate, requests: minute(rate), timeline_points: 240, token_times: 4 }),
      // The K/V picture's twin of the base run: the same arrivals with each request's prompt +
      // output reserved at admission, at paged K/V's default memory share (so both runs have the
      // same capacity); under prefill first, vLLM v0's scheduler, the vLLM paper's comparison.
      ...(policy === KV_POLICY
        ? [job(policy, 'reserve', { rate, requests: minute(rate), timeline_points: 240, kv: 'reserve', gpu_memory_utilization: PAGED_MEMORY_SHARE })]
        : []),
      ...sweep.map((r, i) => job(policy, `sweep-${i}`, { rate: r, requests: minute(r) })),
      job(policy, 'goodput', { rate: Number((saturation * 0.5).toPrecision(3)), requests: minute(saturation, 200), goodput: true }),
    ]);
  }

  /** Each scheduler's base report with its sweep and goodput runs folded in, as the charts read them. */
  /** @param {JobResult[]} results @returns {ServingRun[]} */
  #assemble(results) {
    return POLICY_IDS.filter((policy) => results.some((r) => r.policy === policy && r.key === 'base')).map((policy) => {
      const mine = results.filter((r) => r.policy === policy);
      const base = /** @type {JobResult} */ (mine.find((r) => r.key === 'base')).report; // filtered above
      const goodput = mine.find((r) => r.key === 'goodput')?.report;
      const reserve = mine.find((r) => r.key === 'reserve')?.report;
      const sweep = mine
        .filter((r) => r.key.startsWith('sweep-'))
        .map((r) => ({ rate: r.rate, slo_attainment: r.report.slo_attainment, overloaded: r.report.overloaded }));
      return {
        policy,
        ...(reserve ? { reserve } : {}),
        report: {
          ...base,
          sweep,
          goodput_requests_per_second: goodput?.goodput_requests_per_second ?? null,
          goodput_per_device: goodput?.goodput_per_device ?? null,
          goodput_target: goodput?.goodput_target ?? null,
          goodput_requests: goodput?.requests ?? null,
        },
      };
    });
  }

  async #start() {
    const read = this.#read();
    if (read.error) {
      setText(this.status, read.error);
      return;
    }
    const values = /** @type {Values} */ (read.values); // read.error is set otherwise
    const id = ++this.#run;
    const jobs = this.#jobs(values);
    this.runButton.disabled = true;
    setText(this.status, `Simulating ${POLICY_IDS.length} schedulers…`);
    // The charts chunk, by the literal address build-site writes (the explorer's import).
    const chartsModule = import('../charts/index.js');
    let outcome = await this.#inWorker(id, jobs);
    if (outcome.noWorker && id === this.#run) outcome = await this.#onPage(id, jobs, outcome.noWorker);
    if (id !== this.#run) return;
    if (outcome.error) {
      this.runButton.disabled = false;
      setText(this.status, outcome.error);
      return;
    }
    this.element.dataset.ranIn = outcome.ranIn ?? '';
    // Where the simulation ends and the drawing starts, for a profile (bench/phone-bench.mjs).
    performance.mark?.('prefill-trace:under-load:simulated');
    await this.#show(id, /** @type {ServingRun[]} */ (outcome.runs), values, await chartsModule);
    // The run is over once it is drawn (the drawing takes a few tasks, #show).
    if (id === this.#run) this.runButton.disabled = false;
  }

  /**
   * The Worker, created on the first run, or a reason why none can run: its script must come
   * from the page's own origin (a Worker's rule), and the browser (or the page's CSP) may refuse.
   * @returns {{worker: Worker, noWorker?: undefined} | {noWorker: string, worker?: undefined}}
   */
  #startWorker() {
    if (this.#worker) return { worker: this.#worker };
    const started = startServingWorker(this.#base, 'prefill-trace-serving');
    if (typeof started === 'string') return { noWorker: started };
    this.#worker = started;
    return { worker: started };
  }

  /** Runs the jobs in the Worker: `{runs, ranIn}`, `{error}`, or `{noWorker: reason}` to run them here. @param {number} id @param {Job[]} jobs @returns {Promise<Outcome>} */
  #inWorker(id, jobs) {
    if (this.#workerFailure) return Promise.resolve({ noWorker: this.#workerFailure });
    const started = this.#startWorker();
    if (started.noWorker) return Promise.resolve(started);
    const worker = /** @type {Worker} */ (started.worker); // noWorker is set otherwise
    /** @type {JobResult[]} */
    const runs = [];
    /** @type {Promise<Outcome>} */
    const finished = new Promise((settle) => {
      // The first outcome is the run's: a refusal is not followed by "Simulated k of n runs…"
      // from results still arriving (issue 33, L1; the Worker also stops at a refusal now).
      let settled = false;
      const resolve = (/** @type {Outcome} */ outcome) => {
        settled = true;
        settle(outcome);
      };
      const failed = (/** @type {string} */ reason) => {
        // A Worker that cannot load is not used again: the next run goes straight to the page.
        worker.terminate();
        if (this.#worker === worker) this.#worker = null;
        this.#workerFailure = reason;
        resolve({ noWorker: reason });
      };
      worker.onmessage = (event) => {
        const m = /** @type {WorkerMessage} */ (event.data);
        if (settled) return;
        if (m.type === 'capability' && !m.ok) failed(m.error ?? '');
        if (m.id !== id) return;
        if (m.type === 'result') {
          if (!m.ok) {
            resolve({ error: `The engine rejected the ${jobs[/** @type {number} */ (m.index)].policy} run: ${m.error}` });
            return;
          }
          runs.push({ ...jobs[/** @type {number} */ (m.index)], report: /** @type {ServingFigures} */ (m.report) });
          setText(this.status, `Simulated ${runs.length} of ${jobs.length} runs…`);
        }
        if (m.type === 'done') resolve({ runs: this.#assemble(runs), ranIn: 'worker' });
      };
      // A script that does not load (404, refused by a CSP's worker-src) or throws.
      worker.onerror = (event) => {
        event.preventDefault?.();
        failed(workerErrorWords(event));
      };
    });
    worker.postMessage({ type: 'run', id, wasm: assetUrl(ENGINE_DIR + ENGINE_WASM, this.#base).href, jobs: jobs.map(({ json }) => json) });
    return finished;
  }

  /**
   * Without a Worker, the page's own engine runs the jobs on the main thread in slices: each
   * `advance` runs a budget of the engine's work (docs/serving.md, "In slices"), and the page
   * yields between slices, so no task holds it for long and the status moves. The budget follows
   * the time a slice took, aiming at SLICE_MS, so a slow phone gets smaller slices. A run
   * abandoned (a new run, the element removed: the run id moved on) frees its simulation.
   * @param {number} id
   * @param {Job[]} jobs
   * @param {string} reason
   * @returns {Promise<Outcome>}
   */
  async #onPage(id, jobs, reason) {
    const engine = this.#explorer.engine;
    if (!engine.hasServingSlices?.()) return { error: `The simulation could not run: ${reason}.` };
    setText(this.whereHint, `Simulated by the engine on this page itself, in short steps between which the page stays responsive (${reason}).`);
    /** @type {JobResult[]} */
    const runs = [];
    let budget = FIRST_BUDGET;
    let shown = -Infinity;
    for (const [index, job] of jobs.entries()) {
      await yieldToPage();
      if (id !== this.#run) return {};
      const simulation = engine.startServing(job.json);
      if (!simulation.ok) return { error: `The engine rejected the ${job.policy} run: ${simulation.error}` };
      try {
        const advanced = await advanceInSlices(simulation, {
          live: () => id === this.#run,
          budget,
          onStep: (step) => {
            // A new text lays the page out again: twice a second is enough to read it.
            if (performance.now() - shown < STATUS_MS) return;
            shown = performance.now();
            setText(this.status, onPageStatus(index, jobs.length, step));
          },
        });
        if ('stopped' in advanced) return {};
        if ('error' in advanced) return { error: `The engine rejected the ${job.policy} run: ${advanced.error}` };
        budget = advanced.budget;
        await yieldToPage();
        if (id !== this.#run) return {};
        const result = simulation.result();
        if (!result.ok) return { error: `The engine rejected the ${job.policy} run: ${result.error}` };
        runs.push({ ...job, report: servingSummary(result.value) });
      } finally {
        simulation.dispose();
      }
    }
    return { runs: this.#assemble(runs), ranIn: 'page' };
  }

  /**
   * The charts, made on the first run. @param {import('../explorer/chart-inputs.js').ChartsModule} module
   * @returns {Record<string, import('../charts/common.js').ChartPanel<import('../charts/serving.js').ServingModel>>}
   */
  #chartsOf(module) {
    if (!this.#charts) {
      this.#charts = {
        percentiles: module.percentileChart(),
        attainment: module.attainmentChart(),
        tokens: module.tokensChart(),
        kv: module.kvChart(),
        timeline: module.timelineChart(),
      };
      this.chartsBox.replaceChildren(...Object.values(this.#charts).map((chart) => chart.element));
    }
    return this.#charts;
  }

  /**
   * Draws the runs: each chart in a task of its own after a frame, and each panel of a chart
   * drawn in panels (the timeline, the token picture: charts/in-parts.js) in a task of its own
   * after it, then each chart's data table in a task of its own, then the reading after a frame
   * (all five at once were one 111 ms task on a 4× slowed phone, one timeline 54–172 ms; issue
   * 30 item 8).
   * Each task begins with the mark `prefill-trace:under-load:draw-<chart>` (its panels
   * `draw-<chart>-<i>`, its table `table-<chart>`), which tests/browser/under-load.test.mjs
   * finds in a trace; a new run (the run id moved on) stops the drawing. `data-simulated` is set
   * once all is drawn.
   * @param {number} id @param {ServingRun[]} runs @param {Values} values @param {import('../explorer/chart-inputs.js').ChartsModule} module
   */
  async #show(id, runs, { rate, ttft, tpot }, module) {
    delete this.element.dataset.simulated;
    const charts = Object.entries(this.#chartsOf(module));
    const model = { runs, rate, ttftSlo: ttft, tpotSlo: tpot, target: runs[0]?.report.goodput_target ?? 0.9 };
    /** A step: its mark's name, and its drawing, which may return further steps to run next. @typedef {[string, () => Step[] | void]} Step */
    /** @type {Step[]} */
    const steps = [
      ...charts.map(([name, chart]) => /** @type {Step} */ ([`draw-${name}`, () => module.deferParts(() => chart.update(model)).map((draw, i) => [`draw-${name}-${i}`, draw])])),
      ...charts.map(([name, chart]) => /** @type {Step} */ ([`table-${name}`, () => chart.updateData()])),
    ];
    steps.push([
      'reading',
      () => {
        setText(this.status, `Simulated ${fmt.count(runs[0]?.report.requests ?? 0)} requests per scheduler.`);
        this.reading.replaceChildren(...reading(runs, rate));
      },
    ]);
    while (steps.length) {
      const [step, draw] = /** @type {Step} */ (steps.shift());
      // A frame before each chart and the reading; a chart's later panels and the tables (never
      // on screen) only a new task (on-page.js nextTask: a frame of this page is itself long).
      await (/^(draw-[a-z]+|reading)$/.test(step) ? yieldToPage() : nextTask());
      if (id !== this.#run) return;
      performance.mark?.(`prefill-trace:under-load:${step}`);
      steps.unshift(...(draw() ?? []));
    }
    this.element.dataset.simulated = String(runs.length);
    performance.mark?.('prefill-trace:under-load:drawn');
  }
}

/** The schedulers in the order the sentence names them, with the words it uses. */
const SENTENCE_POLICIES = [
  ['prefill-first', 'under prefill first'],
  ['chunked', 'with chunked prefill'],
  ['disaggregated', 'disaggregated'],
];

/** "A, B and C" of the nodes of each item. */
/**
 * @template T
 * @param {T[][]} items
 * @returns {(T | string)[]}
 */
function listed(items) {
  return items.flatMap((nodes, i) => [i === 0 ? '' : i === items.length - 1 ? ' and ' : ', ', ...nodes]);
}

/**
 * The result in one line, from the reports: each scheduler's median TTFT, median and 99th
 * percentile TPOT, and goodput. Every figure is a <data> element holding the report's exact
 * value (data-name "<figure>-<policy>"); a figure the engine reported as null (no finished
 * request has it: TPOT of one-token outputs) is said so, never shown as 0.
 * @param {ServingRun[]} runs
 * @param {number} rate
 */
function reading(runs, rate) {
  const by = new Map(runs.map((r) => [r.policy, r.report]));
  const present = SENTENCE_POLICIES.filter(([id]) => by.has(id));
  if (present.length === 0) return [];
  /** @type {(id: string, name: string, value: number | null, text: string) => HTMLElement} */
  const figure = (id, name, value, text) => h('data', { value: value ?? '', 'data-name': `${name}-${id}` }, text);
  /** @type {(id: string, key: 'ttft_seconds' | 'tpot_seconds', p: 'p50' | 'p99', name: string) => HTMLElement} */
  const quantile = (id, key, p, name) => {
    const report = /** @type {ServingFigures} */ (by.get(id));
    const value = report[key]?.[p] ?? null;
    return figure(id, name, value, value === null ? 'no figure' : fmt.seconds(value));
  };
  const overloaded = present.filter(([id]) => by.get(id)?.overloaded).map(([, words]) => words);
  const tpotKnown = present.some(([id]) => by.get(id)?.tpot_seconds != null);
  return [
    `At ${fmt.rate(rate)}, the median request’s first token comes after `,
    ...listed(present.map(([id, words]) => [quantile(id, 'ttft_seconds', 'p50', 'ttft-p50'), ` ${words}`])),
    ...(tpotKnown
      ? [
          '; its later tokens come every ',
          ...listed(present.map(([id]) => [quantile(id, 'tpot_seconds', 'p50', 'tpot-p50')])),
          ' at the median (',
          ...listed(present.map(([id]) => [quantile(id, 'tpot_seconds', 'p99', 'tpot-p99')])),
          ' at the 99th percentile)',
        ]
      : ['; with one output token per request there is no time per output token']),
    '; goodput within both objectives, per device, is ',
    ...listed(
      present.map(([id, words]) => {
        // The engine's own per-device figure: goodput ÷ the run's devices (docs/serving.md).
        const { goodput_per_device: perDevice, devices } = /** @type {ServingFigures} */ (by.get(id));
        const value = perDevice !== null && perDevice > 0 ? perDevice : null;
        const where = devices > 1 ? ` on each of ${fmt.count(devices)} devices` : ' on its one device';
        return [figure(id, 'goodput-per-device', value, value ? fmt.rate(value) : 'none found'), `${value ? where : ''} ${words}`];
      }),
    ),
    overloaded.length ? ` (${overloaded.join(' and ')}: overloaded at this rate, the queue grows without bound)` : '',
    '.',
  ];
}

/** Why a Worker stopped, from its error event. @param {ErrorEvent} event */
export const workerErrorWords = (event) => (event.message ? `the Worker stopped: ${event.message}` : 'the Worker’s script did not load');

/**
 * A new serving Worker (worker.js) from the asset base, or why none can run, in the reader's
 * words: its script must come from the page's own origin (a Worker's rule), and the browser (or
 * the page's CSP, or Trusted Types) may refuse it. Under load's runs and the investigations'
 * plans each start their own.
 * @param {URL} base  the asset base (config.js assetUrl)
 * @param {string} name  the Worker's name (seen in the browser's tools)
 * @returns {Worker | string}
 */
export function startServingWorker(base, name) {
  const script = assetUrl(SERVING_WORKER, base);
  if (script.origin !== globalThis.location?.origin) return `its script is on another origin (${script.origin})`;
  try {
    // A TrustedScriptURL where Trusted Types apply: the Worker sink takes it as a string.
    return new Worker(/** @type {string} */ (workerScriptUrl(script.href)), { name });
  } catch (error) {
    return refusedWorkerWords(error);
  }
}

/**
 * Why the browser refused the Worker, in the reader's words, by the kind of refusal (never the
 * browser's own message): Trusted Types refuse the script URL with a TypeError; a CSP's
 * `worker-src` (or another security rule) with a SecurityError.
 * @param {unknown} error
 */
export function refusedWorkerWords(error) {
  if (error instanceof TypeError && policyRefused())
    return `this page’s security policy allows no background script without Trusted Types policy “${TRUSTED_TYPES_POLICY}”`;
  if (/** @type {Error | null} */ (error)?.name === 'SecurityError') return 'this page’s security policy allows no background thread';
  return 'this browser refused a background thread';
}
