// The trace explorer: controls → engine → every number and chart, once per change.
//
// A control edit marks `control-change` and updates the scenario at once: the first edit in a
// frame is rendered in its own event handler (no wait for the next frame); further edits in the
// same frame are coalesced into one requestAnimationFrame. The engine computes the trace, and
// every part of the results that is on screen (or near it) is updated in place; parts far
// off screen are only marked stale and are brought up to date in an idle moment soon after, or
// as soon as they scroll near the viewport, whichever comes first. `control-to-update` is
// measured from the first unmeasured mark to the moment everything visible shows the new
// scenario (a benchmark reads these measures); `first-trace-drawn` marks the end of the first
// complete drawing. `data-scenario` on the explorer names the scenario once every part,
// visible or not, shows it.
//
// Committed edits (a released slider, a changed field) are pushed to the URL when the element
// owns it (`sync-url`), and back/forward restore them; they also regenerate the engine's
// checks, which quote the scenario and are not redrawn on every frame of a drag.

import { h } from '../dom.js';
import {
  CUSTOM_MODEL,
  DEFAULTS,
  defaultState,
  fieldOfError,
  fromQuery,
  getField,
  scenarioJson,
  scenarioObject,
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
import { sweepChart, sweepValues, ttftChart } from '../charts/ttft.js';
import { Controls } from './controls.js';
import { download, traceCsv, traceFileName } from './downloads.js';
import { Glance } from './glance.js';
import { StepTrace } from './steps.js';

const MAX_MEASURES = 500;
/** How far outside the viewport a part still counts as visible (rendered with the update). */
const NEAR_VIEWPORT = '50% 0px';
/** The longest a part off screen may stay stale. */
const DEFERRED_TIMEOUT_MS = 250;

export class Explorer {
  #frame = 0;
  #frameReset = 0;
  #updatedThisFrame = false;
  #pendingStart = null;
  #lastJson = null;
  #lastResult = null;
  #lastSweepKey = null;
  #lastSweep = null;
  #sweepVariable = 'prompt_tokens';
  #notes = {};
  #afterRender = null;
  #firstDrawn = false;
  // The scenario every part should show, and the parts that do not show it yet.
  #shown = null;
  #dirty = new Set();
  #deferred = 0;
  #parts = new Map();
  #visible = new Map();
  #widths = new Map();
  #messagesKey = null;
  #stale = null;
  // The generated checks follow committed scenarios only (not every frame of a drag): their
  // questions quote the scenario, and rebuilding them per frame would only slow the figures.
  #checksDirty = true;
  #urlTimer = 0;

  /**
   * @param {object} options
   * @param {import('../engine.js').Engine} options.engine
   * @param {object} options.presets       listPresets() value
   * @param {boolean} options.syncUrl      keep the scenario in the page's URL
   * @param {(json: string, ok: boolean) => void} [options.onScenario]  after each committed scenario
   * @param {HTMLElement} [options.scenarioElement]  what onScenario updates (rendered when near the viewport)
   */
  constructor({ engine, presets, syncUrl, onScenario = () => {}, scenarioElement = null }) {
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
        this.#markChange();
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

    // The parts of the results, each rendered from the current trace on its own.
    this.#parts.set('glance', { element: this.glance.element, render: (shown) => this.glance.update(shown.trace) });
    this.#parts.set('steps', { element: this.steps.element, render: (shown) => this.steps.update(shown.trace) });
    for (const [name, chart] of Object.entries(this.charts)) {
      this.#parts.set(name, { element: chart.element, render: (shown) => this.#renderChart(name, shown) });
    }
    this.#parts.set('checks', {
      element: scenarioElement,
      render: (shown) => this.onScenario(shown.json, shown.ok),
    });

    if (typeof IntersectionObserver === 'function') {
      const names = new Map();
      const observer = new IntersectionObserver(
        (entries) => {
          const now = [];
          for (const entry of entries) {
            const name = names.get(entry.target);
            this.#visible.set(name, entry.isIntersecting);
            if (entry.isIntersecting && this.#dirty.has(name)) now.push(name);
          }
          // A stale part coming near the viewport is brought up to date before it shows.
          if (now.length) this.#renderParts(now);
        },
        { rootMargin: NEAR_VIEWPORT },
      );
      for (const [name, { element }] of this.#parts) {
        if (!element) continue;
        names.set(element, name);
        observer.observe(element);
      }
    }

    // Chart widths come from a ResizeObserver (read while the layout is clean), so an update
    // never forces a layout to measure them.
    const canvases = new Map(Object.entries(this.charts).map(([name, chart]) => [chart.canvas, name]));
    this.resizeObserver = new ResizeObserver((entries) => {
      const resized = [];
      for (const entry of entries) {
        const name = canvases.get(entry.target);
        const width = entry.target.clientWidth;
        if (this.#widths.get(name) !== width) {
          this.#widths.set(name, width);
          resized.push(name);
        }
      }
      if (!this.#shown?.ok) return;
      const now = [];
      for (const name of resized) {
        if (this.#isVisible(name)) now.push(name);
        else this.#dirty.add(name);
      }
      for (const name of now) this.charts[name].resize(this.#widths.get(name));
      this.#scheduleDeferred();
    });
    for (const canvas of canvases.keys()) this.resizeObserver.observe(canvas);

    if (syncUrl) {
      window.addEventListener('popstate', () => {
        // The URL now names the scenario to show; a push still pending would overwrite it.
        clearTimeout(this.#urlTimer);
        this.#urlTimer = 0;
        this.#markChange();
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

  /** Records a reader's change: `control-to-update` runs from the first one not yet shown. */
  #markChange() {
    const mark = performance.mark('control-change');
    this.#pendingStart ??= mark?.startTime ?? performance.now();
  }

  #edit(key, value, commit) {
    this.#markChange();
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
    this.#markChange();
    this.highlightStep = step;
    this.steps.select(step);
    for (const input of this.stepPicker.querySelectorAll('input')) {
      input.checked = input.value === (step ? String(step) : 'none');
    }
    this.#schedule();
  }

  /**
   * Puts the committed scenario in the page's URL, just after the figures are updated:
   * pushState can take milliseconds in Chromium, which the reader would otherwise wait for.
   * Several commits before it runs make one history entry (the last scenario).
   */
  #pushUrl() {
    if (!this.syncUrl || this.#urlTimer) return;
    this.#urlTimer = setTimeout(() => {
      this.#urlTimer = 0;
      const url = this.#permalink();
      if (url.href !== window.location.href) window.history.pushState({ prefillTrace: true }, '', url);
    }, 0);
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
      this.#markChange();
      this.state = this.defaults;
      this.#notes = {};
      this.controls.setState(this.state);
      this.#pushUrl();
      this.#checksDirty = true;
      this.#schedule();
    }
  }

  /**
   * Renders the current state: at once when nothing has been rendered in this frame yet (the
   * reader's edit shows without waiting for a frame), otherwise once in the next frame however
   * many edits arrive before it.
   */
  #schedule() {
    if (this.#frame) return;
    if (!this.#updatedThisFrame) {
      this.#run();
      return;
    }
    this.#frame = requestAnimationFrame(() => {
      this.#frame = 0;
      this.#run();
    });
  }

  #run() {
    this.#updatedThisFrame = true;
    this.#frameReset ||= requestAnimationFrame(() => {
      this.#frameReset = 0;
      this.#updatedThisFrame = false;
    });
    this.#update();
  }

  #compute() {
    const json = scenarioJson(this.state);
    if (json !== this.#lastJson) {
      this.#lastJson = json;
      this.#lastResult = this.engine.computeTrace(json);
    }
    return { json, result: this.#lastResult };
  }

  /**
   * TTFT at hundreds of values of the swept variable, in one engine call. The curve depends on
   * the rest of the scenario, not on the swept value itself (its marker comes from the trace),
   * so moving only that value reuses the last sweep.
   */
  #sweep(trace) {
    const variable = this.#sweepVariable;
    const values = sweepValues(variable, trace);
    const rest = scenarioObject(this.state);
    delete rest[variable];
    const key = JSON.stringify([variable, rest, values.length, values[0], values[values.length - 1]]);
    if (key !== this.#lastSweepKey) {
      this.#lastSweepKey = key;
      this.#lastSweep = this.engine.sweep(scenarioJson(this.state), variable, values);
    }
    return this.#lastSweep;
  }

  #renderChart(name, { trace }) {
    const chart = this.charts[name];
    const width = this.#widths.get(name);
    const stepIndex = this.highlightStep;
    const highlight = stepIndex ? new Set(trace.steps[stepIndex - 1].operators) : null;
    if (name === 'sweep') {
      chart.setVariable(this.#sweepVariable);
      const sweep = this.#sweep(trace);
      if (sweep.ok) {
        chart.update({ points: sweep.value.points, variable: this.#sweepVariable, trace }, width);
      } else {
        chart.showError(`The engine could not sweep this scenario: ${sweep.error}`);
      }
    } else if (name === 'memory') {
      chart.update({ trace, related: stepIndex === 4 }, width);
    } else if (name === 'roofline' || name === 'time') {
      chart.update({ trace, highlight }, width);
    } else {
      chart.update({ trace }, width);
    }
    const related = relatedToStep(name, stepIndex);
    if (chart.element.classList.contains('is-related') !== related) {
      chart.element.classList.toggle('is-related', related);
    }
  }

  #isVisible(name) {
    return !this.#firstDrawn || this.#visible.get(name) !== false;
  }

  /** Renders stale parts now; when none is left, the scenario is fully shown. */
  #renderParts(names) {
    const shown = this.#shown;
    if (!shown) return;
    for (const name of names) {
      if (!this.#dirty.delete(name)) continue;
      if (name !== 'checks' && !shown.ok) continue;
      this.#parts.get(name).render(shown);
    }
    if (this.#dirty.size === 0) this.element.dataset.scenario = shown.json;
  }

  /** Brings every stale part up to date in an idle moment (at most DEFERRED_TIMEOUT_MS later). */
  #scheduleDeferred() {
    if (this.#deferred || this.#dirty.size === 0) return;
    const run = () => {
      this.#deferred = 0;
      this.#renderParts([...this.#dirty]);
    };
    this.#deferred =
      typeof requestIdleCallback === 'function'
        ? requestIdleCallback(run, { timeout: DEFERRED_TIMEOUT_MS })
        : setTimeout(run, 16);
  }

  #setStale(stale) {
    if (this.#stale === stale) return;
    this.#stale = stale;
    this.results.classList.toggle('results--stale', stale);
    this.results.inert = stale;
    if (stale) this.results.setAttribute('aria-hidden', 'true');
    else this.results.removeAttribute('aria-hidden');
  }

  #setMessages(errors) {
    const key = JSON.stringify([errors, this.#notes]);
    if (key === this.#messagesKey) return;
    this.#messagesKey = key;
    this.controls.setMessages(errors, this.#notes);
  }

  #update() {
    // Widths normally come from the ResizeObserver; before its first report, read them all
    // now, before anything is written (one layout, not one per chart).
    if (this.#widths.size < Object.keys(this.charts).length) {
      for (const [name, chart] of Object.entries(this.charts)) {
        if (!this.#widths.has(name)) this.#widths.set(name, chart.measure());
      }
    }
    const { json, result } = this.#compute();
    this.controls.showShape(this.state.model === CUSTOM_MODEL);
    if (!result.ok) {
      const key = fieldOfError(result.error);
      this.#setMessages(key ? { [key]: result.error } : {});
      this.controls.setPrecisionHint(null);
      // The last good figures stay in place (no jump in the page) but greyed out and inert,
      // under the engine's message: they are not this scenario's.
      this.#setStale(true);
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
      // Stale figures are not redrawn: only the checks follow the (rejected) scenario.
      for (const name of this.#dirty) if (name !== 'checks') this.#dirty.delete(name);
      this.#shown = { json, ok: false, trace: null };
    } else {
      const trace = result.value;
      this.#setMessages({});
      this.controls.setPrecisionHint(trace.scenario.precision);
      if (!this.resultsError.hidden) {
        this.resultsError.hidden = true;
        this.resultsError.replaceChildren();
      }
      this.#setStale(false);
      this.element.dataset.state = 'ready';
      this.#shown = { json, ok: true, trace };
      for (const name of this.#parts.keys()) if (name !== 'checks') this.#dirty.add(name);
    }
    if (this.#checksDirty) {
      this.#checksDirty = false;
      this.#dirty.add('checks');
    }
    // Every part on screen (or near it) now; the rest when the page is idle.
    this.#renderParts([...this.#dirty].filter((name) => this.#isVisible(name)));
    this.#scheduleDeferred();
    if (!this.#firstDrawn) {
      this.#firstDrawn = true;
      performance.mark('first-trace-drawn');
    }
    this.#afterRender?.();
    this.#afterRender = null;
    if (this.#pendingStart !== null) {
      performance.measure('control-to-update', { start: this.#pendingStart });
      this.#pendingStart = null;
      performance.clearMarks('control-change');
      if (performance.getEntriesByName('control-to-update').length > MAX_MEASURES) {
        performance.clearMeasures('control-to-update');
      }
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
