// The trace explorer: controls → engine → every number and chart, once per change.
//
// Each control edit marks `control-change`, updates the scenario and asks for one animation
// frame; in that frame the engine computes the trace (and the TTFT sweep, hundreds of points in
// one call), everything is rendered, and `control-to-update` is measured from the mark (a
// benchmark reads these measures). Nothing is debounced: the engine call takes well under a
// millisecond. Committed edits (a released slider, a changed field) are pushed to the URL when
// the element owns it (`sync-url`), and back/forward restore them; they also regenerate the
// engine's checks, which quote the scenario and are not redrawn on every frame of a drag.

import { h } from '../dom.js';
import {
  CUSTOM_MODEL,
  DEFAULTS,
  defaultState,
  fieldOfError,
  fromQuery,
  getField,
  scenarioJson,
  shapeOf,
  toQuery,
  withField,
} from '../scenario.js';
import { legend } from '../charts/common.js';
import { decodeChart } from '../charts/decode.js';
import { memoryChart } from '../charts/memory.js';
import { reuseChart } from '../charts/reuse.js';
import { rooflineChart } from '../charts/roofline.js';
import { timeChart } from '../charts/time.js';
import { sweepChart, sweepValues, SWEEP_VARIABLES, ttftChart } from '../charts/ttft.js';
import { Controls } from './controls.js';
import { download, traceCsv, traceFileName } from './downloads.js';
import { Glance } from './glance.js';
import { StepTrace } from './steps.js';

const MAX_MEASURES = 500;

export class Explorer {
  #frame = 0;
  #pendingMark = false;
  #lastJson = null;
  #lastResult = null;
  #lastSweepKey = null;
  #lastSweep = null;
  #sweepVariable = 'prompt_tokens';
  #notes = {};
  #afterRender = null;
  // The generated checks follow committed scenarios only (not every frame of a drag): their
  // questions quote the scenario, and rebuilding them per frame would only slow the figures.
  #checksDirty = true;

  /**
   * @param {object} options
   * @param {import('../engine.js').Engine} options.engine
   * @param {object} options.presets       listPresets() value
   * @param {boolean} options.syncUrl      keep the scenario in the page's URL
   * @param {(json: string, ok: boolean) => void} [options.onScenario]  after each committed scenario
   */
  constructor({ engine, presets, syncUrl, onScenario = () => {} }) {
    this.engine = engine;
    this.presets = presets;
    this.syncUrl = syncUrl;
    this.onScenario = onScenario;
    const defaultModel = presets.models.find((m) => m.id === DEFAULTS.model) ?? presets.models[0];
    this.defaults = defaultState(shapeOf(defaultModel));
    this.state = this.defaults;

    this.controls = new Controls(presets, {
      onEdit: (key, value, commit) => this.#edit(key, value, commit),
      onAction: (name) => this.#action(name),
    });
    this.glance = new Glance();
    this.steps = new StepTrace((step) => this.#highlight(step));
    this.highlightStep = null;
    this.stepPicker = h(
      'fieldset',
      { class: 'segmented step-picker' },
      h('legend', {}, 'Highlight the operators of'),
      ['none', '1', '2', '3', '4', '5'].map((value) =>
        h(
          'label',
          {},
          h('input', { type: 'radio', name: 'highlight-step', value, checked: value === 'none' }),
          ' ',
          value === 'none' ? 'no step' : `step ${value}`,
        ),
      ),
    );
    this.stepPicker.addEventListener('change', (event) => {
      this.#highlight(event.target.value === 'none' ? null : Number(event.target.value));
    });

    this.charts = {
      roofline: rooflineChart(
        legend([
          { kind: 'circle', className: 'point bound-memory', label: 'memory-bound operator' },
          { kind: 'square', className: 'point bound-compute', label: 'compute-bound operator' },
          { kind: 'triangle', className: 'point bound-overhead', label: 'launch-overhead-bound operator' },
          { kind: 'rule', className: 'roof', label: 'roof: min(P, β × intensity)' },
        ]),
      ),
      time: timeChart(),
      memory: memoryChart(),
      ttft: ttftChart(),
      sweep: sweepChart((variable) => {
        this.#sweepVariable = variable;
        this.#schedule();
      }),
      decode: decodeChart(),
      reuse: reuseChart(),
    };

    this.resultsError = h('div', { class: 'results-error', hidden: true });
    this.results = h(
      'div',
      { class: 'results' },
      this.glance.element,
      this.steps.element,
      h(
        'section',
        { class: 'explorer-block charts-block', 'aria-labelledby': 'charts-heading' },
        h('h3', { id: 'charts-heading' }, 'Pictures of the trace'),
        this.stepPicker,
        h(
          'div',
          { class: 'charts' },
          this.charts.roofline.element,
          this.charts.time.element,
          this.charts.memory.element,
          h('div', { class: 'chart-pair' }, this.charts.ttft.element, this.charts.sweep.element),
          this.charts.decode.element,
          this.charts.reuse.element,
        ),
      ),
    );
    this.element = h(
      'section',
      { id: 'explorer', class: 'explorer', 'aria-labelledby': 'explorer-heading', 'data-state': 'loading' },
      h('h2', { id: 'explorer-heading' }, 'Explore the resource trace'),
      h(
        'p',
        { class: 'explorer-intro' },
        'Change the model, the accelerator and the prompt, and watch the five steps of prefill change. ',
        'Every figure is computed by the prefill-trace engine (WebAssembly) in your browser.',
      ),
      h(
        'div',
        { class: 'explorer-layout' },
        h('div', { class: 'explorer-controls' }, this.controls.element),
        h('div', { class: 'explorer-results' }, this.resultsError, this.results),
      ),
    );

    this.resizeObserver = new ResizeObserver(() => {
      requestAnimationFrame(() => {
        const charts = Object.values(this.charts);
        const widths = charts.map((chart) => chart.measure());
        charts.forEach((chart, i) => chart.resize(widths[i]));
      });
    });
    this.resizeObserver.observe(this.results);

    if (syncUrl) {
      window.addEventListener('popstate', () => {
        this.#loadFromUrl();
        this.#checksDirty = true;
        this.#schedule();
      });
    }
  }

  /**
   * Reads the URL (when synced), shows the scenario and renders it in the next frame.
   * @returns {Promise<void>} settles after the first render
   */
  start() {
    if (this.syncUrl) this.#loadFromUrl();
    else this.controls.setState(this.state);
    const rendered = new Promise((resolve) => {
      this.#afterRender = resolve;
    });
    this.#schedule();
    return rendered;
  }

  /**
   * The permalink's scenario. A value the engine rejects is reported beside its control and
   * replaced by the default for that field only, until the scenario computes.
   */
  #loadFromUrl() {
    const params = new URLSearchParams(window.location.search);
    let { state, fromUrl } = fromQuery(params, this.defaults);
    const notes = {};
    if (state.model !== CUSTOM_MODEL) state = this.#withPresetShape(state);
    for (let i = 0; i < 32; i += 1) {
      const result = this.engine.computeTrace(scenarioJson(state));
      if (result.ok) break;
      const key = fieldOfError(result.error);
      if (!key || !fromUrl.has(key)) break;
      notes[key] = result.error;
      fromUrl.delete(key);
      state = withField(state, key, getField(this.defaults, key));
      if (key === 'model') state = this.#withPresetShape(state);
    }
    this.#notes = notes;
    this.state = state;
    this.controls.setState(state);
  }

  #withPresetShape(state) {
    const preset = this.presets.models.find((m) => m.id === state.model);
    return preset ? { ...state, shape: shapeOf(preset) } : state;
  }

  #edit(key, value, commit) {
    performance.mark('control-change');
    this.#pendingMark = true;
    let state = withField(this.state, key, value);
    if (key === 'model') {
      // Choosing "Custom shape…" starts from the model shown until now.
      state = value === CUSTOM_MODEL ? { ...state, shape: { ...this.state.shape } } : this.#withPresetShape(state);
      this.controls.setState(state);
    }
    delete this.#notes[key];
    this.state = state;
    if (commit) {
      this.#pushUrl();
      this.#checksDirty = true;
    }
    this.#schedule();
  }

  /** Selects a step (or none): its operators are highlighted in the charts. */
  #highlight(step) {
    this.highlightStep = step;
    this.steps.select(step);
    for (const input of this.stepPicker.querySelectorAll('input')) {
      input.checked = input.value === (step ? String(step) : 'none');
    }
    this.#schedule();
  }

  #pushUrl() {
    if (!this.syncUrl) return;
    const url = this.#permalink();
    if (url.href !== window.location.href) window.history.pushState({ prefillTrace: true }, '', url);
  }

  /** The link to this scenario: the page's own URL when synced, else the lesson's page. */
  #permalink() {
    const base = this.syncUrl ? new URL(window.location.href) : new URL('index.html', import.meta.url);
    const params = toQuery(this.state, this.syncUrl ? base.searchParams : new URLSearchParams());
    base.search = params.toString();
    base.hash = '';
    return base;
  }

  async #action(name) {
    const trace = this.#lastResult?.ok ? this.#lastResult.value : null;
    if (name === 'copy-link') {
      const link = this.#permalink().href;
      try {
        await navigator.clipboard.writeText(link);
        this.controls.say('Link copied to the clipboard.');
      } catch {
        this.controls.say('Copying is not allowed here; select and copy the link below.', link);
      }
    } else if (name === 'download-json' || name === 'download-csv') {
      if (!trace) {
        this.controls.say('There is no trace to download: the engine rejected this scenario.');
        return;
      }
      if (name === 'download-json') {
        download(this.#lastResult.json, traceFileName(trace, 'json'), 'application/json');
      } else {
        download(traceCsv(trace), traceFileName(trace, 'csv'), 'text/csv');
      }
      this.controls.say(`Downloaded ${traceFileName(trace, name === 'download-json' ? 'json' : 'csv')}.`);
    } else if (name === 'reset') {
      performance.mark('control-change');
      this.#pendingMark = true;
      this.state = this.defaults;
      this.#notes = {};
      this.controls.setState(this.state);
      this.#pushUrl();
      this.#checksDirty = true;
      this.#schedule();
    }
  }

  #schedule() {
    if (this.#frame) return;
    this.#frame = requestAnimationFrame(() => {
      this.#frame = 0;
      this.#update();
    });
  }

  #compute() {
    const json = scenarioJson(this.state);
    if (json !== this.#lastJson) {
      this.#lastJson = json;
      this.#lastResult = this.engine.computeTrace(json);
    }
    return { json, result: this.#lastResult };
  }

  #sweep(json, trace) {
    const variable = this.#sweepVariable;
    const key = `${variable}\n${json}`;
    if (key !== this.#lastSweepKey) {
      this.#lastSweepKey = key;
      const current = SWEEP_VARIABLES[variable].current(trace);
      this.#lastSweep = this.engine.sweep(json, variable, sweepValues(variable, current));
    }
    return this.#lastSweep;
  }

  #update() {
    // Read every chart's width before anything changes: the layout is still clean, so this
    // costs no forced layout.
    const widths = Object.fromEntries(Object.entries(this.charts).map(([name, chart]) => [name, chart.measure()]));
    const { json, result } = this.#compute();
    this.controls.showShape(this.state.model === CUSTOM_MODEL);
    if (!result.ok) {
      const key = fieldOfError(result.error);
      this.controls.setMessages(key ? { [key]: result.error } : {}, this.#notes);
      this.controls.setPrecisionHint(null);
      // The last good figures stay in place (no jump in the page) but greyed out and inert,
      // under the engine's message: they are not this scenario's.
      this.results.classList.add('results--stale');
      this.results.inert = true;
      this.results.setAttribute('aria-hidden', 'true');
      this.resultsError.hidden = false;
      this.resultsError.replaceChildren(
        h(
          'div',
          { class: 'inline-error', role: 'alert' },
          h('p', { class: 'inline-error-title' }, 'The engine cannot compute this scenario.'),
          h('p', {}, result.error),
          h('p', {}, 'The figures below are from the last scenario it could compute.'),
          key ? null : h('p', {}, 'Change the scenario, or press Reset to return to the default.'),
        ),
      );
      this.element.dataset.state = 'error';
    } else {
      const trace = result.value;
      this.controls.setMessages({}, this.#notes);
      this.controls.setPrecisionHint(trace.scenario.precision);
      this.resultsError.hidden = true;
      this.resultsError.replaceChildren();
      this.results.classList.remove('results--stale');
      this.results.inert = false;
      this.results.removeAttribute('aria-hidden');
      this.#render(json, trace, widths);
      this.element.dataset.state = 'ready';
    }
    this.element.dataset.scenario = json;
    if (this.#checksDirty) {
      this.#checksDirty = false;
      this.onScenario(json, result.ok);
    }
    this.#afterRender?.();
    this.#afterRender = null;
    if (this.#pendingMark) {
      this.#pendingMark = false;
      performance.measure('control-to-update', 'control-change');
      performance.clearMarks('control-change');
      if (performance.getEntriesByName('control-to-update').length > MAX_MEASURES) {
        performance.clearMeasures('control-to-update');
      }
    }
  }

  #render(json, trace, widths) {
    const stepIndex = this.highlightStep;
    const highlight = stepIndex ? new Set(trace.steps[stepIndex - 1].operators) : null;
    this.glance.update(trace);
    this.steps.update(trace);
    this.charts.roofline.update({ trace, highlight }, widths.roofline);
    this.charts.time.update({ trace, highlight }, widths.time);
    this.charts.memory.update({ trace, related: stepIndex === 4 }, widths.memory);
    this.charts.ttft.update({ trace }, widths.ttft);
    this.charts.decode.update({ trace }, widths.decode);
    this.charts.reuse.update({ trace }, widths.reuse);
    this.charts.sweep.setVariable(this.#sweepVariable);
    const sweep = this.#sweep(json, trace);
    if (sweep.ok) {
      this.charts.sweep.update({ points: sweep.value.points, variable: this.#sweepVariable, trace }, widths.sweep);
    } else {
      this.charts.sweep.showError(`The engine could not sweep this scenario: ${sweep.error}`);
    }
    for (const [name, chart] of Object.entries(this.charts)) {
      chart.element.classList.toggle('is-related', relatedToStep(name, stepIndex));
    }
  }
}

function relatedToStep(chart, step) {
  if (!step) return false;
  if (step === 4) return chart === 'memory';
  if (step === 5) return chart === 'ttft' || chart === 'sweep' || chart === 'time';
  if (step === 2) return chart === 'roofline' || chart === 'time' || chart === 'reuse';
  return chart === 'roofline' || chart === 'time';
}
