// The trace explorer: controls → engine → every number and chart, once per change.
//
// A control edit marks `control-change` and updates the scenario at once: the first edit in a
// frame is rendered in its own event handler (no wait for the next frame); further edits in the
// same frame are coalesced into one requestAnimationFrame. The engine computes the trace, and
// every part of the results that is on screen (or near it) is updated in place; parts far
// off screen are only marked stale and are brought up to date in an idle moment soon after, or
// as soon as they scroll near the viewport, whichever comes first. `control-to-update` is
// measured from the first unmeasured mark to the moment everything visible shows the new
// scenario (a benchmark reads these measures).
//
// The first drawing is the figures and the five steps (the top of the results); the charts,
// the 1 000-point sweep and the generated checks are below them, and on a cold load they
// follow in idle moments (one part per moment, so the page stays responsive) or as soon as
// they near the viewport. The charts and d3 are a module of their own (charts/index.js, built
// as CHARTS_MODULE), fetched once the first drawing is done. `first-trace-drawn` marks the end
// of that first drawing. `data-scenario` on the explorer names the scenario once every part,
// visible or not, shows it, and `fullyShown()` settles then.
//
// Committed edits (a released slider, a changed field) are pushed to the URL when the element
// owns it (`sync-url`), and back/forward restore them; they also regenerate the engine's
// checks, which quote the scenario and are not redrawn on every frame of a drag.

import { CHARTS_MODULE, assetUrl } from '../config.js';
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
import { Controls } from './controls.js';
import { download, traceCsv, traceFileName } from './downloads.js';
import { Glance } from './glance.js';
import { StepTrace } from './steps.js';

const MAX_MEASURES = 500;
/** How far outside the viewport a part still counts as visible (rendered with the update). */
const NEAR_VIEWPORT = '50% 0px';
/** The longest a part off screen may stay stale. */
const DEFERRED_TIMEOUT_MS = 250;
/** Idle time (ms) an idle callback leaves unused rather than start drawing one more part. */
const IDLE_RESERVE_MS = 4;
/**
 * The parts drawn with the first trace wherever they are: the figures and the steps a reader
 * meets first. Every other part waits on a cold load until it nears the viewport or the page
 * is idle.
 */
const FIRST_PARTS = new Set(['glance', 'steps']);
/** The charts, in the order they are shown (and drawn when stale); see charts/index.js. */
const CHART_NAMES = ['roofline', 'time', 'memory', 'ttft', 'sweep', 'decode', 'reuse'];

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
  // Callers of fullyShown() waiting for every part to show the scenario.
  #shownWaiters = [];
  // The charts module (charts/index.js) and the charts made from it, once it has loaded.
  #chartsModule = null;
  #chartsLoad = null;
  #chartsFailed = false;
  #charts = null;
  // The element (or chart canvas) each observer reports, by part name.
  #observedParts = new Map();
  #observedCanvases = new Map();
  #intersections = null;
  #onPopState = null;
  #disposed = false;

  /**
   * @param {object} options
   * @param {import('../engine.js').Engine} options.engine
   * @param {object} options.presets       listPresets() value
   * @param {boolean} options.syncUrl      keep the scenario in the page's URL
   * @param {(json: string, ok: boolean) => void} [options.onScenario]  after each committed scenario
   * @param {HTMLElement} [options.scenarioElement]  what onScenario updates (rendered when near the viewport)
   * @param {URL} [options.assetBase]     where the charts module and the permalink's page live
   * @param {(state: object) => void} [options.onCommit]  after the reader commits a change
   * @param {(part: string, message: string) => void} [options.onError]  a part failed to load
   */
  constructor({
    engine,
    presets,
    syncUrl,
    onScenario = () => {},
    scenarioElement = null,
    assetBase = undefined,
    onCommit = () => {},
    onError = () => {},
  }) {
    this.engine = engine;
    this.presets = presets;
    this.syncUrl = syncUrl;
    this.onScenario = onScenario;
    this.assetBase = assetBase;
    this.onCommit = onCommit;
    this.onError = onError;
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

    // Filled with the charts once their module has loaded (#loadCharts).
    this.chartGrid = h('div', { class: 'charts' });

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
        this.chartGrid,
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
    this.#parts.set('glance', { render: (shown) => this.glance.update(shown.trace) });
    this.#parts.set('steps', { render: (shown) => this.steps.update(shown.trace) });
    for (const name of CHART_NAMES) {
      this.#parts.set(name, { render: (shown) => this.#renderChart(name, shown) });
    }
    this.#parts.set('checks', { render: (shown) => this.onScenario(shown.json, shown.ok) });

    if (typeof IntersectionObserver === 'function') {
      this.#intersections = new IntersectionObserver(
        (entries) => {
          const now = [];
          for (const entry of entries) {
            const name = this.#observedParts.get(entry.target);
            this.#visible.set(name, entry.isIntersecting);
            if (entry.isIntersecting && this.#dirty.has(name)) now.push(name);
          }
          // A stale part coming near the viewport is brought up to date before it shows.
          if (now.length) this.#renderParts(now);
        },
        { rootMargin: NEAR_VIEWPORT },
      );
    }
    this.#observePart('glance', this.glance.element);
    this.#observePart('steps', this.steps.element);
    this.#observePart('checks', scenarioElement);

    // Chart widths come from a ResizeObserver (read while the layout is clean), so an update
    // never forces a layout to measure them.
    this.resizeObserver = new ResizeObserver((entries) => {
      const resized = [];
      for (const entry of entries) {
        const name = this.#observedCanvases.get(entry.target);
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
      for (const name of now) this.#charts[name].resize(this.#widths.get(name));
      this.#scheduleDeferred();
    });

    if (syncUrl) {
      this.#onPopState = () => {
        // The URL now names the scenario to show; a push still pending would overwrite it.
        clearTimeout(this.#urlTimer);
        this.#urlTimer = 0;
        this.#markChange();
        this.#loadFromUrl();
        this.#checksDirty = true;
        this.#schedule();
      };
      window.addEventListener('popstate', this.#onPopState);
    }
  }

  /**
   * Releases what the explorer holds outside its own nodes — the window's back/forward
   * listener, the observers, pending frames, idle callbacks and timers — so a removed element
   * can be collected. The explorer does nothing after this.
   */
  dispose() {
    this.#disposed = true;
    if (this.#onPopState) window.removeEventListener('popstate', this.#onPopState);
    this.#onPopState = null;
    this.#intersections?.disconnect();
    this.resizeObserver.disconnect();
    cancelAnimationFrame(this.#frame);
    cancelAnimationFrame(this.#frameReset);
    if (typeof cancelIdleCallback === 'function') cancelIdleCallback(this.#deferred);
    clearTimeout(this.#deferred);
    clearTimeout(this.#urlTimer);
    this.#frame = 0;
    this.#frameReset = 0;
    this.#deferred = 0;
    this.#urlTimer = 0;
    this.#observedParts.clear();
    this.#observedCanvases.clear();
    this.#afterRender?.();
    this.#afterRender = null;
    for (const resolve of this.#shownWaiters.splice(0)) resolve();
  }

  /**
   * Shows `state` (a host's scenario, see scenario.js stateFromScenario) as if the reader had
   * set every control; a value the engine rejects is reported beside its control. Not pushed
   * to the URL and not reported back through onCommit (the host knows what it set).
   */
  setState(state, { quiet = false } = {}) {
    if (this.#disposed) return;
    const next = state.model === CUSTOM_MODEL ? state : this.#withPresetShape(state);
    this.state = next;
    this.#notes = {};
    this.controls.setState(next);
    if (quiet) return;
    this.#markChange();
    this.#checksDirty = true;
    this.#schedule();
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

  /** Settles once every part, visible or not, shows the current scenario. */
  fullyShown() {
    if (this.#shown && this.#dirty.size === 0) return Promise.resolve();
    return new Promise((resolve) => this.#shownWaiters.push(resolve));
  }

  /** Lets the IntersectionObserver report whether part `name` (shown by `element`) is near view. */
  #observePart(name, element) {
    if (!element || !this.#intersections) return;
    this.#observedParts.set(element, name);
    this.#intersections.observe(element);
  }

  /**
   * Loads the charts module once, then makes the charts, puts them in the page and draws the
   * stale ones like any other stale part. A module that fails to load leaves a message in
   * place of the charts; the rest of the explorer works on.
   */
  #loadCharts() {
    // charts/index.js, bundled alone (script/build-site): the URL keeps it out of app.js.
    this.#chartsLoad ??= import(assetUrl(CHARTS_MODULE, this.assetBase).href).then(
      (module) => {
        if (this.#disposed) return;
        this.#chartsModule = module;
        this.#charts = module.createCharts((variable) => {
          this.#markChange();
          this.#sweepVariable = variable;
          this.#schedule();
        });
        const { roofline, time, memory, ttft, sweep, decode, reuse } = this.#charts;
        this.chartGrid.replaceChildren(
          roofline.element,
          time.element,
          memory.element,
          h('div', { class: 'chart-pair' }, ttft.element, sweep.element),
          decode.element,
          reuse.element,
        );
        for (const name of CHART_NAMES) {
          const chart = this.#charts[name];
          // Off screen until the IntersectionObserver says otherwise: a new chart is drawn at
          // once only when it is near the viewport, and in an idle moment otherwise.
          if (this.#intersections) this.#visible.set(name, false);
          this.#observePart(name, chart.element);
          this.#observedCanvases.set(chart.canvas, name);
          this.resizeObserver.observe(chart.canvas);
        }
        this.#scheduleDeferred();
      },
      (error) => {
        if (this.#disposed) return;
        this.onError('charts', `The charts could not be loaded: ${error instanceof Error ? error.message : error}`);
        this.#chartsFailed = true;
        this.chartGrid.replaceChildren(
          h(
            'p',
            { class: 'inline-error', role: 'alert' },
            `The charts could not be loaded: ${error instanceof Error ? error.message : error}. `,
            'The figures and steps above are complete without them.',
          ),
        );
        for (const name of CHART_NAMES) this.#dirty.delete(name);
        if (this.#shown) this.#afterParts();
      },
    );
  }

  /** Whether part `name` can be drawn now: a chart waits for the charts module. */
  #canRender(name) {
    return Boolean(this.#charts) || this.#chartsFailed || !CHART_NAMES.includes(name);
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
      const json = scenarioJson(state);
      const result = this.engine.computeTrace(json);
      // The render that follows shows this scenario: it reuses this trace (#compute).
      this.#lastJson = json;
      this.#lastResult = result;
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
      this.onCommit(this.state);
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
    const base = this.syncUrl ? new URL(window.location.href) : assetUrl('index.html', this.assetBase);
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
      this.onCommit(this.state);
      this.#schedule();
    }
  }

  /**
   * Renders the current state: at once when nothing has been rendered in this frame yet (the
   * reader's edit shows without waiting for a frame), otherwise once in the next frame however
   * many edits arrive before it.
   */
  #schedule() {
    if (this.#frame || this.#disposed) return;
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
    const values = this.#chartsModule.sweepValues(variable, trace);
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
    const chart = this.#charts?.[name];
    if (!chart) return;
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

  /**
   * Whether `name` is drawn with an update. Before the first drawing nothing is known of the
   * layout (and measuring it would force the page's first layout early): only FIRST_PARTS
   * count. Later a part counts unless the IntersectionObserver placed it far off screen.
   */
  #isVisible(name) {
    if (!this.#firstDrawn) return FIRST_PARTS.has(name);
    return this.#visible.get(name) !== false;
  }

  /** Renders stale parts now; when none is left, the scenario is fully shown. */
  #renderParts(names) {
    const shown = this.#shown;
    if (!shown) return;
    for (const name of names) this.#renderPart(name, shown);
    this.#afterParts();
  }

  #renderPart(name, shown) {
    if (!this.#dirty.has(name) || !this.#canRender(name)) return;
    this.#dirty.delete(name);
    if (name !== 'checks' && !shown.ok) return;
    this.#parts.get(name).render(shown);
  }

  #afterParts() {
    if (this.#dirty.size > 0) return;
    this.element.dataset.scenario = this.#shown.json;
    for (const resolve of this.#shownWaiters.splice(0)) resolve();
  }

  /**
   * Brings the stale parts up to date in idle moments, in document order: as many per idle
   * callback as its deadline allows, at least one, and none left stale longer than about
   * DEFERRED_TIMEOUT_MS per part while the page is busy.
   */
  #scheduleDeferred() {
    // Charts still waiting for their module are scheduled when it arrives (#loadCharts).
    if (this.#deferred || ![...this.#dirty].some((name) => this.#canRender(name))) return;
    if (this.#disposed) return;
    const run = (deadline) => {
      this.#deferred = 0;
      const shown = this.#shown;
      if (!shown) return;
      for (const name of this.#parts.keys()) {
        if (!this.#dirty.has(name) || !this.#canRender(name)) continue;
        this.#renderPart(name, shown);
        if (!deadline || deadline.timeRemaining() < IDLE_RESERVE_MS) break;
      }
      this.#afterParts();
      this.#scheduleDeferred();
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
    // Widths normally come from the ResizeObserver; before its first report, read the widths
    // of the charts to be drawn now, before anything is written (one layout, not one per
    // chart). The first drawing has no chart in it, and measures nothing.
    if (this.#firstDrawn && this.#charts) {
      for (const name of CHART_NAMES) {
        if (!this.#widths.has(name) && this.#isVisible(name)) this.#widths.set(name, this.#charts[name].measure());
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
      // The charts are next: fetch their module now, while the page is painted.
      this.#loadCharts();
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
