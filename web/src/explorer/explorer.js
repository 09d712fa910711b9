// The trace explorer: controls → engine → every number and chart, once per change.
//
// A control edit marks `control-change` and updates the scenario at once (FrameScheduler in
// scheduling.js). The engine computes the trace, and every part of the results that is on
// screen (visibility.js) is updated in place; parts off screen are only marked stale and are
// brought up to date in an idle moment soon after, or as soon as they come near the viewport,
// whichever comes first (StaleParts). `control-to-update` is measured from the first
// unmeasured mark to the moment everything on screen shows the new scenario (a benchmark reads
// these measures).
//
// The explorer is placed in parts, each laid out in a frame of its own: its controls (in two
// halves), then the figures, the steps and the charts' block (start(), view.js placeNext). The first drawing is
// the figures and the five steps (the top of the results) unless the IntersectionObserver puts
// them off screen (on a phone the explorer starts below the first screen); the charts, the
// 1 000-point sweep and the generated checks are below them. On a cold load whatever is not
// drawn first follows in idle moments (one first drawing per moment, so each is laid out in a
// frame of its own and the page stays responsive) or as soon as it nears the viewport. The charts and d3 are a module of their own (charts/index.js, built
// as chunks/charts-<hash>.js by script/build-site), fetched once the first drawing is done. `first-trace-drawn` marks the end
// of that first drawing. `data-scenario` on the explorer names the scenario once every part,
// visible or not, shows it, and `fullyShown()` settles then.
//
// Committed edits (a released slider, a changed field) are pushed to the URL when the element
// owns it (`sync-url`, url-sync.js), and back/forward restore them; they also regenerate the
// engine's checks, which quote the scenario and are not redrawn on every frame of a drag.
// The DOM is built by view.js.

import {
  CUSTOM_MODEL,
  DEFAULTS,
  defaultState,
  fieldOfError,
  scenarioJson,
  scenarioObject,
  shapeOf,
  withField,
} from '../scenario.js';
import { Compare, niceCeil, ttftSpan } from '../compare/compare.js';
import { plainError } from '../plain-words/errors.js';
import { UnderLoad } from '../under-load/under-load.js';
import * as fmt from '../format.js';
import { Controls } from './controls.js';
import { ExplorerActions } from './actions.js';
import { figureIndex, figuresSignature } from './trace-from-figures.js';
import { TraceCache } from './trace-cache.js';
import { Glance, ttftText } from './glance.js';
import { ScenarioBar } from './scenario-bar.js';
import { ScrollportWatch } from './scrollport.js';
import { FrameScheduler, StaleParts, nextFrame, nextTask } from './scheduling.js';
import { STEP_COUNT, StepTrace } from './steps.js';
import { UrlSync, scenarioFromQuery } from './url-sync.js';
import { ExplorerView } from './view.js';
import { PartVisibility } from './visibility.js';

const MAX_MEASURES = 500;
/**
 * The parts drawn with the first trace wherever they are: the figures and the steps a reader
 * meets first. Every other part waits on a cold load until it nears the viewport or the page
 * is idle.
 */
const STEP_PARTS = Array.from({ length: STEP_COUNT }, (_, i) => `step-${i + 1}`);
const FIRST_PARTS = new Set(['glance', ...STEP_PARTS]);
/** The charts, in the order they are shown (and drawn when stale); see charts/index.js. */
const CHART_NAMES = ['roofline', 'intensity', 'time', 'bytes', 'memory', 'ttft', 'sweep', 'decode', 'reuse'];
/** The part that writes a chart's data table: never on screen, so always drawn in idle time. */
const dataPart = (chart) => `${chart}-data`;
const DATA_PARTS = new Set(CHART_NAMES.map(dataPart));
/** Every part that needs the charts module. */
const CHART_PARTS = new Set([...CHART_NAMES, ...DATA_PARTS]);
/**
 * The longest the first drawing waits for the IntersectionObserver to say which steps are on
 * screen (it reports after the explorer's first layout, normally well within this).
 */
const FIRST_REPORT_TIMEOUT_MS = 500;

export class Explorer {
  #pendingStart = null;
  /** The traces computed, by scenario and by shape (trace-cache.js). */
  #traces;
  /** The action buttons' work (actions.js). */
  #actions;
  #lastSweepKey = null;
  #lastSweep = null;
  #curveKey = null;
  #curve = null;
  #sweepVariable = 'prompt_tokens';
  #sweepScale = 'log';
  // "Hold this axis" on the TTFT bar: the axis's end once held (widened, never narrowed).
  #ttftHeld = false;
  #ttftHoldTop = null;
  #notes = {};
  #afterRender = null;
  #firstDrawn = false;
  #messagesKey = null;
  // The generated checks follow committed scenarios only (not every frame of a drag): their
  // questions quote the scenario, and rebuilding them per frame would only slow the figures.
  #checksDirty = true;
  // The charts module (charts/index.js) and the charts made from it, once it has loaded.
  #chartsModule = null;
  #chartsLoad = null;
  #chartsFailed = false;
  #charts = null;
  #frames;
  #parts;
  #visibility;
  #url;
  #disposed = false;
  #scrollport;
  // A host's scenario was given before start(): it is shown, not the URL's (issue 24, W8).
  #hostScenario = false;
  // A pinned scenario's trace and the fixed TTFT axis while comparing (compare.js), or null.
  #comparison = null;

  /**
   * @param {object} options
   * @param {import('../engine.js').Engine} options.engine
   * @param {object} options.presets       listPresets() value
   * @param {boolean} options.syncUrl      keep the scenario in the page's URL
   * @param {(json: string, ok: boolean) => void} [options.onScenario]  after each committed scenario
   * @param {HTMLElement} [options.scenarioElement]  what onScenario updates (rendered when near the viewport)
   * @param {URL} [options.assetBase]     where the charts module and the lesson's page live (config.js)
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
    this.assetBase = assetBase;
    this.onCommit = onCommit;
    this.onError = onError;
    const defaultModel = presets.models.find((m) => m.id === DEFAULTS.model) ?? presets.models[0];
    this.defaults = defaultState(shapeOf(defaultModel));
    this.state = this.defaults;
    this.highlightStep = null;

    this.controls = new Controls(presets, {
      fields: engine.scenarioFields(),
      onEdit: (key, value, commit) => this.#edit(key, value, commit),
      onAction: (name) => this.#action(name),
    });
    this.glance = new Glance();
    this.steps = new StepTrace((step) => this.#highlight(step, { reveal: true }));
    this.view = new ExplorerView({
      controls: this.controls.element,
      glance: this.glance.element,
      steps: this.steps.element,
      onHighlight: (step) => this.#highlight(step),
    });
    this.element = this.view.element;
    // Pin and compare sits under the figures: A beside B (compare.js).
    this.compare = new Compare({ engine, explorer: this });
    this.view.holdAfterGlance(this.compare.element);
    // Under load: the serving simulation, when this engine has it (under-load/under-load.js).
    this.underLoad = engine.hasServing?.() ? new UnderLoad({ explorer: this, assetBase }) : null;
    if (this.underLoad) this.element.append(this.underLoad.element);
    this.scenarioBar = new ScenarioBar(presets, this.view.controlsBox, this.controls.element);
    this.scenarioBar.attach(this.element);
    this.view.showScenarioBar(this.scenarioBar.element);
    // The sticky parts size themselves from the box the explorer scrolls in (scrollport.js).
    this.#scrollport = new ScrollportWatch(this.element);

    this.#traces = new TraceCache(engine);
    this.#actions = new ExplorerActions({
      engine,
      controls: this.controls,
      permalink: () => this.#url.permalink(this.state),
      last: () => this.#traces.last,
      reset: () => this.#reset(),
    });
    this.#frames = new FrameScheduler(() => this.#update());
    this.#parts = this.#makeParts(onScenario);
    this.#visibility = this.#watchParts(scenarioElement);
    this.#url = this.#followUrl({ syncUrl, assetBase });
  }

  /** The parts of the results, each drawn when it is stale and can be (scheduling.js StaleParts). */
  #makeParts(onScenario) {
    const parts = new StaleParts({
      canRender: (name) => this.#canRender(name),
      onFullyShown: (shown) => this.view.markShown(shown.json),
    });
    parts.add('glance', (shown) => this.glance.update(shown.trace));
    // Each step's card is a part of its own: a change redraws the cards on screen, not all five.
    STEP_PARTS.forEach((name, i) => parts.add(name, (shown) => this.steps.updateStep(i, shown.trace)));
    for (const name of CHART_NAMES) parts.add(name, (shown) => this.#renderChart(name, shown));
    // The charts' data tables (for screen readers, never on screen) follow in idle time, each
    // after its chart: idle moments draw stale parts in the order they were added.
    for (const name of CHART_NAMES) parts.add(dataPart(name), () => this.#charts?.[name].updateData());
    parts.add('checks', (shown) => onScenario(shown.json, shown.ok));
    parts.add('compare', (shown) => this.compare.update(shown.trace));
    return parts;
  }

  /** Which parts are near the viewport, and their widths (visibility.js). */
  #watchParts(scenarioElement) {
    const visibility = new PartVisibility({
      // A stale part coming near the viewport is brought up to date before it shows.
      onNear: (names) => {
        const stale = names.filter((name) => this.#parts.isStale(name));
        if (stale.length) this.#parts.render(stale);
      },
      onResized: (names) => this.#resized(names),
    });
    // The steps are observed once they are in the page (start()).
    visibility.observePart('glance', this.glance.element);
    visibility.observePart('checks', scenarioElement);
    visibility.observePart('compare', this.compare.element);
    return visibility;
  }

  /** The page's URL, when the element owns it: back and forward restore a scenario (url-sync.js). */
  #followUrl({ syncUrl, assetBase }) {
    return new UrlSync({
      enabled: syncUrl,
      assetBase,
      onPopState: () => {
        this.#markChange();
        this.#loadFromUrl();
        this.compare.readUrl(this.#url.params(), { clearMissing: true });
        this.#checksDirty = true;
        this.#frames.schedule();
      },
    });
  }

  /** Whether the scenario (and a pinned comparison) live in the page's URL. */
  get syncsUrl() {
    return this.#url.enabled;
  }

  /**
   * Shows `state` as if the reader had set it (a guided investigation's "Show me"): like
   * setState, then committed — into the URL when synced, and reported through onCommit.
   */
  apply(state) {
    if (this.#disposed) return;
    this.setState(state);
    this.#commit();
  }

  /**
   * Draws the charts with `comparison` beside the scenario shown (compare.js: A's trace as a
   * ghost series, the TTFT axis fixed while comparing), or alone when null.
   */
  setComparison(comparison) {
    if (this.#disposed) return;
    this.#comparison = comparison;
    this.#markChange();
    if (this.#parts.shown?.ok) this.#parts.markStale((name) => name === 'roofline' || name === 'ttft' || name === 'roofline-data' || name === 'ttft-data');
    this.#frames.schedule();
  }

  /**
   * Places the rest of the explorer, reads the URL (when synced), shows the scenario and
   * renders it: each part placed, the trace (the engine's first JSON trace compiles its writer:
   * V8 compiles wasm functions on first call, on the main thread) and the first drawing are
   * tasks of their own (nextFrame, nextTask, docs/performance.md).
   * @returns {Promise<void>} settles after the first render
   */
  async start() {
    // The explorer was placed with the first half of its controls; the rest of them, the
    // figures, the steps and the charts' block follow in frames of their own (controls.js
    // placeRest, view.js placeNext).
    await nextFrame('explorer-controls');
    if (this.#disposed) return;
    this.controls.placeRest();
    for (const step of ['explorer-figures', 'explorer-compare', 'explorer-steps', 'explorer-charts']) {
      await nextFrame(step);
      if (this.#disposed) return;
      this.view.placeNext();
      if (step === 'explorer-steps') {
        STEP_PARTS.forEach((name, i) => this.#visibility.observePart(name, this.steps.cards[i].item));
      }
    }
    await nextTask('trace');
    if (this.#disposed) return;
    if (this.#url.enabled && !this.#hostScenario) {
      this.#loadFromUrl();
      this.compare.readUrl(this.#url.params());
    } else {
      // A host's explicit scenario wins over the address: the address is made to say it
      // (replaced, not a new history entry), so a copied or reloaded address agrees.
      if (this.#url.enabled) this.#url.replace(this.state);
      this.controls.setState(this.state);
      this.#compute();
    }
    // Which steps are on screen decides what the first drawing holds (#isVisible): the
    // IntersectionObserver's first report comes after the explorer's first layout.
    await this.#visibility.whenKnown([...FIRST_PARTS], FIRST_REPORT_TIMEOUT_MS);
    await nextTask('first-draw');
    if (this.#disposed) return;
    const rendered = new Promise((resolve) => {
      this.#afterRender = resolve;
    });
    this.#frames.schedule();
    return rendered;
  }

  /** Settles once every part, visible or not, shows the current scenario. */
  fullyShown() {
    return this.#parts.fullyShown();
  }

  /**
   * Releases what the explorer holds outside its own nodes — the window's back/forward
   * listener, the observers, pending frames, idle callbacks and timers — so a removed element
   * can be collected. The explorer draws nothing after this.
   */
  dispose() {
    this.#disposed = true;
    this.#url.stop();
    this.underLoad?.dispose();
    this.#visibility.disconnect();
    this.#scrollport.disconnect();
    this.scenarioBar.dispose();
    this.#frames.stop();
    this.#parts.stop();
    this.#afterRender?.();
    this.#afterRender = null;
  }

  /**
   * Shows `state` (a host's scenario, see scenario.js stateFromScenario) as if the reader had
   * set every control; a value the engine rejects is reported beside its control. Not pushed
   * to the URL and not reported through onCommit (the host knows what it set). `quiet`: only
   * set it (before start(), which then shows it rather than the URL's scenario).
   */
  setState(state, { quiet = false } = {}) {
    if (this.#disposed) return;
    const next = state.model === CUSTOM_MODEL ? state : this.#withPresetShape(state);
    this.state = next;
    this.#notes = {};
    this.controls.setState(next);
    if (quiet) {
      this.#hostScenario = true;
      return;
    }
    this.#markChange();
    this.#checksDirty = true;
    this.#frames.schedule();
  }

  /**
   * Charts whose width changed or was first reported: redrawn now when in view, else marked
   * stale. A stale chart (one not drawn yet waits for its width) is drawn now when in view,
   * else in idle time.
   */
  #resized(names) {
    if (!this.#parts.shown?.ok) return;
    for (const name of names) {
      if (this.#parts.isStale(name)) continue;
      if (this.#isVisible(name)) this.#charts[name].resize(this.#visibility.width(name));
      else this.#parts.markStale((part) => part === name);
    }
    this.#parts.render(names.filter((name) => this.#parts.isStale(name) && this.#isVisible(name)));
    this.#parts.scheduleDeferred();
  }

  /**
   * Loads the charts module once, then makes the charts, puts them in the page and draws the
   * stale ones like any other stale part. A module that fails to load leaves a message in
   * place of the charts; the rest of the explorer works on.
   */
  #loadCharts() {
    // charts/index.js with d3, bundled alone (script/build-site writes app.js's import as the
    // chunk's content-hashed name beside app.js, a literal every bundler follows).
    this.#chartsLoad ??= import('../charts/index.js').then(
      (module) => {
        if (this.#disposed) return;
        this.#chartsModule = module;
        this.#charts = module.createCharts(
          (variable) => {
            this.#markChange();
            this.#sweepVariable = variable;
            this.#frames.schedule();
          },
          (scale) => {
            this.#markChange();
            this.#sweepScale = scale;
            this.#parts.markStale((name) => name === 'sweep' || name === 'sweep-data');
            this.#frames.schedule();
          },
          (held) => {
            this.#markChange();
            this.#ttftHeld = held;
            this.#ttftHoldTop = null;
            this.#parts.markStale((name) => name === 'ttft' || name === 'ttft-data');
            this.#frames.schedule();
          },
          // A dragged point sets its control, which reports the edit as if typed (controls.js).
          (control, value, commit) => this.controls.setValue(control, value, commit),
        );
        this.#applyChartView();
        this.view.showCharts(this.#charts);
        for (const name of CHART_NAMES) {
          const chart = this.#charts[name];
          this.#visibility.observeChart(name, chart.element, chart.canvas);
        }
        this.#parts.scheduleDeferred();
      },
      (error) => {
        if (this.#disposed) return;
        this.onError('charts', `The charts could not be loaded: ${error instanceof Error ? error.message : error}`);
        this.#chartsFailed = true;
        this.view.showChartsError(error);
        this.#parts.clearStale((name) => CHART_PARTS.has(name));
        this.#parts.settle();
      },
    );
  }

  /**
   * Whether part `name` can be drawn now: a chart and its data wait for the charts module; a
   * chart also for its width (the ResizeObserver's first report, which comes with the frame
   * after the charts are placed: measured before it, a drawing would force the layout of the
   * new chart grid itself), and a chart's data table for its chart.
   */
  #canRender(name) {
    if (this.#chartsFailed || !CHART_PARTS.has(name)) return true;
    if (!this.#charts) return false;
    if (DATA_PARTS.has(name)) return !this.#parts.isStale(name.slice(0, -'-data'.length));
    return this.#visibility.width(name) !== undefined;
  }

  /** The permalink's scenario; values the engine rejects are noted beside their controls. */
  #loadFromUrl() {
    const { state, notes, json, result } = scenarioFromQuery(
      this.#url.params(),
      this.defaults,
      (text) => this.#traces.trace(text),
      (s) => this.#withPresetShape(s),
    );
    // The render that follows shows this scenario: it reuses this trace (#compute).
    this.#traces.remember(json, result);
    this.#notes = notes;
    this.state = state;
    this.controls.setState(state);
  }

  /** `state` with its preset model's shape (a custom model keeps its own). */
  withPresetShape(state) {
    return this.#withPresetShape(state);
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

  /** A committed scenario: into the URL (when synced), and the checks follow it. */
  #commit() {
    this.#url.push(() => this.state);
    this.#checksDirty = true;
    this.onCommit(this.state);
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
    if (commit) this.#commit();
    this.#frames.schedule();
  }

  /** The held TTFT axis's end for `trace` (compare.js's rule: 1.25 × the bar, rounded up), or null. */
  #heldTtftTop(trace) {
    if (!this.#ttftHeld) return null;
    const span = ttftSpan(trace);
    if (this.#ttftHoldTop === null || span > this.#ttftHoldTop) this.#ttftHoldTop = niceCeil(span * 1.25);
    return this.#ttftHoldTop;
  }

  /** Selects a step (or none): its operators are highlighted in the charts. */
  #highlight(step, { reveal = false } = {}) {
    this.#markChange();
    this.highlightStep = step;
    this.steps.select(step);
    this.view.selectStep(step);
    this.#frames.schedule();
    if (reveal && step) this.#revealChart(step);
  }

  /**
   * Brings chart `name` into view (a guided investigation's "Open in the explorer"), with the
   * sweep set to `sweep` ({variable, scale}) when given; before the charts have loaded, the
   * charts' block, and the chart once it is there.
   */
  revealChart(name, { sweep = null } = {}) {
    if (this.#disposed) return;
    if (sweep) {
      this.#markChange();
      this.#sweepVariable = sweep.variable ?? this.#sweepVariable;
      this.#sweepScale = sweep.scale ?? this.#sweepScale;
      this.#applyChartView();
      this.#parts.markStale((part) => part === 'sweep' || part === 'sweep-data');
      this.#frames.schedule();
    }
    const still = window.matchMedia?.('(prefers-reduced-motion: reduce)').matches;
    const element = this.#charts?.[name]?.element;
    (element ?? this.view.element).scrollIntoView({ behavior: still ? 'auto' : 'smooth', block: 'start' });
    // Focus follows, so a keyboard reader continues from the chart (not from the button above).
    if (element) {
      element.setAttribute('tabindex', '-1');
      element.focus({ preventScroll: true });
    }
  }

  /** The sweep chart's radio groups say what the explorer sweeps. */
  #applyChartView() {
    this.#charts?.sweep.setVariable(this.#sweepVariable);
    this.#charts?.sweep.setScale(this.#sweepScale);
  }

  /**
   * Brings the first chart that shows step `step`'s operators into view (the step cards sit
   * above the charts): smoothly, unless the reader asked for reduced motion.
   */
  #revealChart(step) {
    const name = CHART_NAMES.find((chart) => relatedToStep(chart, step));
    const element = name && this.#charts?.[name]?.element;
    if (!element) return;
    const still = window.matchMedia?.('(prefers-reduced-motion: reduce)').matches;
    element.scrollIntoView({ behavior: still ? 'auto' : 'smooth', block: 'start' });
  }

  #action(name) {
    return this.#actions.run(name);
  }

  /** Back to the default scenario (the Reset button). */
  #reset() {
    this.#markChange();
    this.state = this.defaults;
    this.#notes = {};
    this.controls.setState(this.state);
    this.#commit();
    this.#frames.schedule();
  }

  /** The scenario shown and its trace (or the engine's refusal). */
  #compute() {
    const json = scenarioJson(this.state);
    return { json, result: this.#traces.resultOf(json) };
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

  /** The shape signature of a trace the explorer shows: from the kept shapes, else computed. */
  #signatureOf(trace) {
    return this.#traces.signatureOf(trace, scenarioJson(this.state));
  }

  /**
   * Each projection's intensity at every prompt length of the intensity chart: one
   * traceFigures call per length, reused while only the prompt length changes (a slider drag).
   */
  #intensityCurve(trace) {
    const rest = scenarioObject(this.state);
    delete rest.prompt_tokens;
    // The queue does not change what a projection moves or computes: a new arrival rate keeps the curve.
    rest.arrival_rate = 0;
    const names = this.#chartsModule.projectionNames(trace);
    const key = JSON.stringify([rest, names]);
    if (key === this.#curveKey) return this.#curve;
    // Each projection's intensity sits at the same place in the figures of every trace of this
    // trace's shape (layout 3: the document's numbers in printed order).
    const layout = this.engine.figuresLayout();
    const signature = this.#signatureOf(trace);
    const places = names.map((name) => {
      const index = trace.operators.findIndex((op) => op.name === name);
      return layout ? figureIndex(trace, ['operators', index, 'intensity'], layout) : -1;
    });
    const series = names.map((name) => ({ name, points: [] }));
    for (const prompt of this.#chartsModule.curvePrompts()) {
      const result = this.engine.traceFigures(JSON.stringify({ ...rest, prompt_tokens: prompt }));
      // A length the engine rejects for this scenario (e.g. shorter than a chunk it requires), or
      // one that changes the trace's shape, is left out.
      if (!result.ok || figuresSignature(result.figures) !== signature) continue;
      places.forEach((at, s) => {
        const intensity = at < 0 ? NaN : result.figures[at];
        if (Number.isFinite(intensity)) series[s].points.push({ prompt, intensity });
      });
    }
    this.#curveKey = key;
    this.#curve = { id: (this.#curve?.id ?? 0) + 1, series };
    return this.#curve;
  }

  #renderChart(name, { trace }) {
    const chart = this.#charts?.[name];
    if (!chart) return;
    const width = this.#visibility.width(name);
    const stepIndex = this.highlightStep;
    const highlight = stepIndex ? new Set(trace.steps[stepIndex - 1].operators) : null;
    if (name === 'sweep') {
      chart.setVariable(this.#sweepVariable);
      const sweep = this.#sweep(trace);
      if (sweep.ok) {
        chart.update({ points: sweep.value.points, variable: this.#sweepVariable, trace, scale: this.#sweepScale }, width);
      } else {
        chart.showError(`The engine could not sweep this scenario: ${sweep.error}`);
      }
    } else if (name === 'intensity') {
      chart.update({ trace, curve: this.#intensityCurve(trace) }, width);
    } else if (name === 'memory') {
      chart.update({ trace, related: stepIndex === 4 }, width);
    } else if (name === 'roofline') {
      chart.update({ trace, highlight, ghost: this.#comparison?.trace ?? null }, width);
    } else if (name === 'ttft') {
      chart.update({ trace, ghost: this.#comparison?.trace ?? null, top: this.#comparison?.ttftTop ?? this.#heldTtftTop(trace) }, width);
    } else if (name === 'time') {
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
   * Whether `name` is drawn with an update. Before the first drawing only FIRST_PARTS count,
   * and of those only the ones the IntersectionObserver has not placed outside the viewport
   * (not yet reported counts as in view; nothing is measured: that would force the explorer's
   * first layout early). On a phone the explorer starts below the first screen, and its steps
   * follow one per idle moment, each laid out in a frame of its own. Later a part counts unless
   * the IntersectionObserver placed it outside the viewport: parts off screen, near it or not,
   * follow in idle time (usually within the next frame or two), or at once when they come near
   * (visibility.js).
   */
  #isVisible(name) {
    if (DATA_PARTS.has(name)) return false;
    if (!this.#firstDrawn) return FIRST_PARTS.has(name) && this.#visibility.isInView(name);
    return this.#visibility.isInView(name);
  }

  #setMessages(errors) {
    const key = JSON.stringify([errors, this.#notes]);
    if (key === this.#messagesKey) return;
    this.#messagesKey = key;
    // In a sentence naming the field as its control is labelled, the engine's message after it.
    const plain = Object.fromEntries(Object.entries(errors).map(([field, message]) => [field, plainError(message)]));
    // (A permalink's rejected value is already said in a sentence around the engine's message.)
    this.controls.setMessages(plain, this.#notes);
  }

  /** The arrival rate's hint names the rate at which this scenario saturates (utilization 1). */
  #setRateHint(trace) {
    const saturation = trace.steps[4]?.facts?.saturation_arrival_rate;
    this.controls.setHint(
      'rate',
      saturation > 0
        ? `${this.controls.hint('rate')} This scenario saturates at ${fmt.rate(saturation)}.`
        : this.controls.hint('rate'),
    );
  }

  /**
   * Under the estimate, the timing's hint states TTFT with its range, so the stack and the
   * attention kernel below it show their effect where they are edited (on a phone, with the
   * results out of view).
   */
  #setTimingHint(trace) {
    this.controls.setHint(
      'timing',
      trace.scenario.timing === 'estimate'
        ? `Estimate, fitted per accelerator: TTFT ${ttftText(trace.totals.ttft, trace.scenario)} (10th–90th percentile of held-out errors).`
        : this.controls.hint('timing'),
    );
  }

  #update() {
    // Widths normally come from the ResizeObserver; before its first report, read the widths
    // of the charts to be drawn now, before anything is written (one layout, not one per
    // chart). The first drawing has no chart in it, and measures nothing.
    if (this.#firstDrawn && this.#charts) {
      for (const name of CHART_NAMES) {
        if (this.#visibility.width(name) === undefined && this.#isVisible(name)) {
          this.#visibility.setWidth(name, this.#charts[name].measure());
        }
      }
    }
    const { json, result } = this.#compute();
    this.controls.showShape(this.state.model === CUSTOM_MODEL);
    if (!result.ok) {
      const key = fieldOfError(result.path);
      this.#setMessages(key ? { [key]: result.error } : {});
      this.controls.setPrecisionHint(null);
      this.view.showEngineError(plainError(result.error), Boolean(key));
      // Stale figures are not redrawn: only the checks follow the (rejected) scenario.
      this.#parts.clearStale((name) => name !== 'checks');
      this.#parts.show({ json, ok: false, trace: null });
    } else {
      const trace = result.value;
      this.#setMessages({});
      this.controls.setPrecisionHint(trace.scenario.precision);
      this.#setRateHint(trace);
      this.#setTimingHint(trace);
      this.underLoad?.update(trace);
      this.view.showReady();
      // The bar names the scenario the results show (a rejected edit leaves both as they were).
      this.scenarioBar.update(this.state, trace);
      this.#parts.show({ json, ok: true, trace });
      this.#parts.markStale((name) => name !== 'checks');
    }
    if (this.#checksDirty) {
      this.#checksDirty = false;
      this.#parts.markStale((name) => name === 'checks');
    }
    // Every part on screen (or near it) now; the rest when the page is idle.
    this.#parts.render(this.#parts.staleNames().filter((name) => this.#isVisible(name)));
    this.#parts.scheduleDeferred();
    if (!this.#firstDrawn) {
      this.#firstDrawn = true;
      performance.mark('first-trace-drawn');
      // The charts are next: fetch their module now, while the page is painted.
      this.#loadCharts();
    }
    this.#afterRender?.();
    this.#afterRender = null;
    this.#measureUpdate();
  }

  /** `control-to-update`, from the first unmeasured control change to now (a benchmark reads it). */
  #measureUpdate() {
    if (this.#pendingStart === null) return;
    performance.measure('control-to-update', { start: this.#pendingStart });
    this.#pendingStart = null;
    performance.clearMarks('control-change');
    if (performance.getEntriesByName('control-to-update').length > MAX_MEASURES) {
      performance.clearMeasures('control-to-update');
    }
  }
}

function relatedToStep(chart, step) {
  if (!step) return false;
  if (step === 4) return chart === 'memory';
  if (step === 5) return chart === 'ttft' || chart === 'sweep' || chart === 'time';
  if (step === 2) return chart === 'roofline' || chart === 'time' || chart === 'reuse' || chart === 'intensity' || chart === 'bytes';
  if (step === 3) return chart === 'roofline' || chart === 'time' || chart === 'bytes';
  return chart === 'roofline' || chart === 'time';
}
