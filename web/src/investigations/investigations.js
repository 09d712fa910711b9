// Guided investigations (catalog.js): one per claim of the lesson. The reader commits to a
// prediction, then "Show me" sets the scenario(s) in the explorer (A pinned beside B when the
// claim is a comparison, compare.js) and the result is read in one sentence made from the
// engine's traces of those scenarios; "Change one condition" changes both alike and reads again.
//
// A prediction is kept like a quiz answer (progress.js): keyed by the SHA-256 of the
// investigation's question and options, in the element's storage mode, and reported by the
// element's `prefill-trace-answer` event ({questionKey, answer: the option's index, correct:
// whether the engine's numbers bore it out}). The whole block is the element's
// `::part(investigations)`, a <details> a host can close, open or hide.
//
// Each investigation's form is built when it is first opened: the block costs the first
// drawing of the page one <details> per claim.

import { h, setText } from '../dom.js';
import { questionKeyText, sha256Hex } from '../progress.js';
import { scenarioJson, scenarioObject } from '../scenario.js';
import { INVESTIGATIONS } from './catalog.js';
import { InvestigationForm } from './form.js';
import { PlanRunner } from './plan-runner.js';

/** @typedef {import('./form.js').AnyInvestigation} AnyInvestigation */
/** @typedef {import('../scenario.js').ScenarioState} ScenarioState */
/** One investigation in the list: its element, and forgetting or following the stored prediction. @typedef {{element: HTMLElement, reset: () => void, sync: () => Promise<void>}} Item */
import { SERVING_INVESTIGATIONS } from './serving-catalog.js';

/**
 * An investigation's <details>: its claim in the summary, and a place for how its prediction went.
 * @param {AnyInvestigation} spec
 */
function itemElement(spec) {
  return /** @type {HTMLDetailsElement} */ (h(
    'details',
    { class: 'investigation', 'data-investigation': spec.id },
    h('summary', {}, h('span', { class: 'investigation-claim' }, spec.claim), ' ', h('span', { class: 'investigation-state' })),
  ));
}

export class Investigations {
  #engine;
  #explorer;
  #compare;
  #progress;
  /** @type {Map<string, boolean>} */
  #done = new Map();
  /** @type {Item[]} */
  #items = [];
  /** The claims shown: the trace's, and the serving simulation's when the engine has it. */
  /** @type {readonly AnyInvestigation[]} */
  #specs;
  /** The placement searches' runner (a Worker, or slices on the page), made at the first plan. */
  /** @type {PlanRunner | null} */
  #plans = null;

  /**
   * @param {object} options
   * @param {import('../engine.js').Engine} options.engine
   * @param {import('../explorer/explorer.js').Explorer} options.explorer
   * @param {import('../compare/compare.js').Compare} options.compare
   * @param {import('../progress.js').ProgressStore} options.progress
   */
  constructor({ engine, explorer, compare, progress }) {
    this.#engine = engine;
    this.#explorer = explorer;
    this.#compare = compare;
    this.#progress = progress;
    this.#specs = engine.hasServing?.() ? [...INVESTIGATIONS, ...SERVING_INVESTIGATIONS] : INVESTIGATIONS;
    this.count = h('span', { class: 'investigations-count' });
    this.list = h('div', { class: 'investigations-list' });
    this.element = h(
      'details',
      { class: 'investigations', part: 'investigations', open: true, 'data-count': this.#specs.length },
      h('summary', {}, h('span', { class: 'investigations-title' }, 'Guided investigations'), ' ', this.count),
      h(
        'p',
        { class: 'hint' },
        'One claim of the lesson each: predict first, then let the engine show you. ',
        '“Show me” sets the explorer below; a comparison pins one scenario as A beside the other.',
      ),
      this.list,
    );
    for (const spec of this.#specs) this.#items.push(this.#item(spec));
    this.list.append(...this.#items.map((i) => i.element));
    this.#renderCount();
  }

  /** The element is gone: a placement search under way stops, its Worker ends. */
  dispose() {
    this.#plans?.dispose();
    this.#plans = null;
  }

  /** "Forget my answers": every prediction is cleared. */
  reset() {
    this.#done.clear();
    for (const item of this.#items) item.reset();
    this.#renderCount();
  }

  /**
   * Another element or tab changed the stored progress (progress.js, the window's `storage`
   * event): each prediction shown follows the store, made or forgotten there (issue 33, L4).
   */
  showStored() {
    for (const item of this.#items) item.sync();
  }

  #renderCount() {
    const done = [...this.#done.values()].length;
    setText(this.count, `(${done} of ${this.#specs.length} predicted)`);
  }

  /** @param {ScenarioState} state */
  #traceOf(state) {
    const full = this.#explorer.withPresetShape(state);
    const result = this.#engine.computeTrace(scenarioJson(full));
    return result.ok ? result.value : null;
  }

  /**
   * The engine's serving report of `state` with `serving` (docs/serving.md), or null. The
   * single-request workload fields do not apply to a serving run: one request, no arrival rate.
   * @param {ScenarioState} state
   * @param {object} serving
   */
  #serveOf(state, serving) {
    const scenario = { ...scenarioObject(this.#explorer.withPresetShape(state)), batch: 1, arrival_rate: 0, serving };
    const result = this.#engine.simulateServing(JSON.stringify(scenario));
    return result.ok ? result.value : null;
  }

  /** The placement searches' runner, made at the first use. */
  #planRunner() {
    this.#plans ??= new PlanRunner({ engine: this.#engine, assetBase: this.#explorer.assetBase });
    return this.#plans;
  }

  /**
   * The engine's placement search (`prefill-trace plan`) of `state` with `serving` over
   * `devices`, or null; off the main thread (plan-runner.js), `onStatus` told when it runs on
   * the page instead.
   * @param {ScenarioState} state
   * @param {object} serving
   * @param {number} devices
   * @param {(text: string) => void} [onStatus]
   * @returns {Promise<import('prefill-trace').PlanDocument | null>}
   */
  async #planOf(state, serving, devices, onStatus) {
    /** @type {Record<string, unknown>} */
    const scenario = { ...scenarioObject(this.#explorer.withPresetShape(state)), batch: 1, arrival_rate: 0, serving };
    // The search chooses each phase's tensor parallelism: the scenario's is left out.
    delete scenario.tensor_parallel;
    const outcome = await this.#planRunner().plan(JSON.stringify(scenario), devices, onStatus);
    return outcome.ok ? outcome.plan : null;
  }

  /**
   * @param {AnyInvestigation} spec
   * @returns {Item}
   */
  #item(spec) {
    const element = itemElement(spec);
    const state = /** @type {HTMLElement} */ (element.querySelector('.investigation-state'));
    const keyPromise = sha256Hex(questionKeyText({ investigation: spec.id, question: spec.question, options: spec.options })).catch(() => null);
    let form = /** @type {InvestigationForm | null} */ (null);
    let saved = /** @type {{answer: number, correct: boolean} | null} */ (null);
    /** A prediction made here or restored from the store: the summary says how it went. */
    const mark = (/** @type {{answer: number, correct: boolean}} */ stored) => {
      saved = stored;
      this.#done.set(spec.id, stored.correct);
      element.dataset.result = stored.correct ? 'matched' : 'missed';
      setText(state, stored.correct ? '— predicted right' : '— predicted, not borne out');
      this.#renderCount();
    };
    const show = (/** @type {{answer: number, correct: boolean}} */ stored) => {
      mark(stored);
      form?.restore(stored.answer);
    };
    const item = {
      element,
      reset: () => {
        saved = null;
        setText(state, '');
        element.removeAttribute('data-result');
        if (form) {
          form.element.remove();
          form = null;
        }
      },
      sync: () =>
        keyPromise.then((key) => {
          const stored = key ? this.#progress.get(key) : null;
          if (stored) {
            if (stored.answer !== saved?.answer || stored.correct !== saved?.correct) show(stored);
          } else if (saved) {
            item.reset();
            this.#done.delete(spec.id);
            this.#renderCount();
          }
        }),
    };
    const build = () => {
      if (form) return;
      form = this.#form(spec, keyPromise, (answer, correct) => mark({ answer, correct }));
      element.append(form.element);
      if (saved) form.restore(saved.answer);
    };
    element.addEventListener('toggle', () => {
      if (!element.open) return;
      build();
      // An investigation that plans: the Worker loads its engine while the reader predicts.
      if (spec.plans) this.#planRunner().warm();
    });
    keyPromise.then((key) => {
      const stored = key ? this.#progress.get(key) : null;
      if (stored && !saved) show(stored);
    });
    return item;
  }

  /** The investigation's form; a prediction read is saved under its key, then `onPredicted`. */
  /**
   * @param {AnyInvestigation} spec
   * @param {Promise<string | null>} keyPromise
   * @param {(answer: number, correct: boolean) => void} onPredicted
   */
  #form(spec, keyPromise, onPredicted) {
    return new InvestigationForm({
      spec,
      traceOf: (state) => this.#traceOf(state),
      sweepOf: (state, variable, values) =>
        this.#engine.sweep(scenarioJson(this.#explorer.withPresetShape(state)), variable, values),
      serveOf: (state, serving) => this.#serveOf(state, serving),
      planOf: (state, serving, devices, onStatus) => this.#planOf(state, serving, devices, onStatus),
      explorer: this.#explorer,
      compare: this.#compare,
      onPredicted: (answer, correct) => {
        keyPromise.then((key) => {
          if (key) this.#progress.save(key, answer, correct);
        });
        onPredicted(answer, correct);
      },
    });
  }
}
