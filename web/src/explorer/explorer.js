// @ts-check
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
  shapeOf,
  withField,
} from '../scenario.js';
import { Compare } from '../compare/compare.js';
import { plainError } from '../plain-words/errors.js';
import { UnderLoad } from '../under-load/under-load.js';
import { Controls } from './controls.js';
import { ExplorerActions } from './actions.js';
import { ControlMessages } from './control-messages.js';
import { ChartInputs } from './chart-inputs.js';
import { TraceCache } from './trace-cache.js';
import { Glance } from './glance.js';
import { ScenarioBar } from './scenario-bar.js';
import { ScrollportWatch } from './scrollport.js';
import { FrameScheduler, StaleParts, nextFrame, nextTask } from './scheduling.js';
import { StepTrace } from './steps.js';
import { UrlSync, scenarioFromQuery } from './url-sync.js';
import { ExplorerView } from './view.js';
import { CHART_NAMES, CHART_PARTS, FIRST_PARTS, STEP_PARTS, canRenderPart, dataPart, isPartVisible, relatedToStep } from './parts.js';
import { UpdateMeasure } from './update-measure.js';
import { PartVisibility } from './visibility.js';

/**
 * The longest the first drawing waits for the IntersectionObserver to say which steps are on
 * screen (it reports after the explorer's first layout, normally well within this).
 */
const FIRST_REPORT_TIMEOUT_MS = 500;

export class Explorer {
  /** `control-to-update` (update-measure.js). */
  #measure = new UpdateMeasure();
  /** The traces computed, by scenario and by shape (trace-cache.js). */
  #traces;
  /** The action buttons' work (actions.js). */
  #actions;
  /** What the charts are drawn with beyond the trace (chart-inputs.js). */
  #chartInputs;
  #notes = /** @type {Record<string, string>} */ ({});
  /** What the controls say beside them (control-messages.js). */
  #messages;
  #afterRender = /** @type {(() => void) | null} */ (null);
  #firstDrawn = false;
  // The generated checks follow committed scenarios only (not every frame of a drag): their
  // questions quote the scenario, and rebuilding them per frame would only slow the figures.
  #checksDirty = true;
  // The charts module (charts/index.js) and the charts made from it, once it has loaded.
  #chartsModule = /** @type {import('./chart-inputs.js').ChartsModule | null} */ (null);
  #chartsLoad = /** @type {Promise<void> | null} */ (null);
  #chartsFailed = false;
  #charts = /** @type {import('./chart-inputs.js').Charts | null} */ (null);
  #frames;
  #parts;
  #visibility;
  #url;
  #disposed = false;
  #scrollport;
  // A host's scenario was given before start(): it is shown, not the URL's (issue 24, W8).
  #hostScenario = false;
  // A pinned scenario's trace and the fixed TTFT axis while comparing (compare.js), or null.
  #comparison = /** @type {import('../compare/compare.js').Comparison | null} */ (null);

  /**
   * @param {object} options
   * @param {import('../engine.js').Engine} options.engine
   * @param {import('prefill-trace').PresetList} options.presets  listPresets() value
   * @param {boolean} options.syncUrl      keep the scenario in the page's URL
   * @param {(json: string, ok: boolean) => void} [options.onScenario]  after each committed scenario
   * @param {HTMLElement | null} [options.scenarioElement]  what onScenario updates (rendered when near the viewport)
   * @param {URL} [options.assetBase]     where the charts module and the lesson's page live (config.js)
   * @param {(state: import('../scenario.js').ScenarioState) => void} [options.onCommit]  after the reader commits a change
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
    this.highlightStep = /** @type {number | null} */ (null);

    this.controls = new Controls(presets, {
      fields: engine.scenarioFields(),
      onEdit: (key, value, commit) => this.#edit(key, value, commit),
      onAction: (name) => this.#actions.run(name),
    });
    this.#messages = new ControlMessages(this.controls, engine.scenarioFields());
    this.glance = new Glance();
    this.steps = new StepTrace((step) => this.#highlight(step, { reveal: true }), engine.traceLeaves(scenarioJson(this.defaults)));
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
    this.#chartInputs = new ChartInputs(engine, this.#traces);
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

  /** The parts of the results, each drawn when it is stale and can be (scheduling.js StaleParts). @param {(json: string, ok: boolean) => void} onScenario @returns {StaleParts} */
  #makeParts(onScenario) {
    const parts = new StaleParts({
      canRender: (name) => this.#canRender(name),
      onFullyShown: (shown) => this.view.markShown(shown.json),
    });
    // A part other than the checks is drawn only when the trace is ok (StaleParts): shown.trace is set.
    const traceOf = (/** @type {import('./scheduling.js').Shown} */ shown) => /** @type {import('prefill-trace').TraceDocument} */ (shown.trace);
    parts.add('glance', (shown) => this.glance.update(traceOf(shown)));
    STEP_PARTS.forEach((name, i) => parts.add(name, (shown) => this.steps.updateStep(i, traceOf(shown))));
    for (const name of CHART_NAMES) parts.add(name, (shown) => this.#renderChart(name, traceOf(shown)));
    // The charts' data tables (for screen readers, never on screen) follow in idle time, each
    // after its chart: idle moments draw stale parts in the order they were added.
    for (const name of CHART_NAMES) parts.add(dataPart(name), () => this.#charts?.[name].updateData());
    parts.add('checks', (shown) => onScenario(shown.json, shown.ok));
    parts.add('compare', (shown) => this.compare.update(shown.trace));
    return parts;
  }

  /** Which parts are near the viewport, and their widths (visibility.js). @param {HTMLElement | null} scenarioElement */
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

  /** The page's URL, when the element owns it: back and forward restore a scenario (url-sync.js). @param {{syncUrl: boolean, assetBase?: URL}} options */
  #followUrl({ syncUrl, assetBase }) {
    return new UrlSync({
      enabled: syncUrl,
      assetBase,
      onPopState: () => {
        this.#measure.mark();
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
   * setState, then committed — into the URL when synced, and reported through onCommit. @param {import('../scenario.js').ScenarioState} state
   */
  apply(state) {
    if (this.#disposed) return;
    this.setState(state);
    this.#commit();
  }

  /**
   * Draws the charts with `comparison` beside the scenario shown (compare.js: A's trace as a
   * ghost series, the TTFT axis fixed while comparing), or alone when null. @param {import('../compare/compare.js').Comparison | null} comparison
   */
  setComparison(comparison) {
    if (this.#disposed) return;
    this.#comparison = comparison;
    this.#measure.mark();
    if (this.#parts.shown?.ok) this.#parts.markStale((name) => name === 'roofline' || name === 'ttft' || name === 'roofline-data' || name === 'ttft-data');
    this.#frames.schedule();
  }

  /**
   * Places the rest of the explorer, reads the URL (when synced), shows the scenario and
   * renders it: each part placed, the trace (the engine's first JSON trace compiles its writer:
   * V8 compiles wasm functions on first call, on the main thread) and the first drawing are
   * tasks of their own (nextFrame, nextTask, docs/performance.md). @returns {Promise<void>} settles after the first render
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
      this.#afterRender = () => resolve(undefined);
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
   * set it (before start(), which then shows it rather than the URL's scenario). @param {import('../scenario.js').ScenarioState} state @param {{quiet?: boolean}} [options]
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
    this.#measure.mark();
    this.#checksDirty = true;
    this.#frames.schedule();
  }

  /**
   * Charts whose width changed or was first reported: redrawn now when in view, else marked
   * stale. A stale chart (one not drawn yet waits for its width) is drawn now when in view,
   * else in idle time. @param {string[]} names
   */
  #resized(names) {
    if (!this.#parts.shown?.ok) return;
    for (const name of names) {
      if (this.#parts.isStale(name)) continue;
      const chart = this.#charts?.[/** @type {keyof import('./chart-inputs.js').Charts} */ (name)];
      if (this.#isVisible(name)) chart?.resize(this.#visibility.width(name));
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
            this.#measure.mark();
            this.#chartInputs.sweepVariable = /** @type {import('../charts/ttft.js').SweepVariable} */ (variable);
            this.#frames.schedule();
          },
          (scale) => {
            this.#measure.mark();
            this.#chartInputs.sweepScale = scale;
            this.#parts.markStale((name) => name === 'sweep' || name === 'sweep-data');
            this.#frames.schedule();
          },
          (held) => {
            this.#measure.mark();
            this.#chartInputs.holdTtft(held);
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

  /** @param {string} name @returns {boolean} */
  #canRender(name) {
    return canRenderPart(name, { chartsFailed: this.#chartsFailed, charts: this.#charts, parts: this.#parts, visibility: this.#visibility });
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

  /** `state` with its preset model's shape (a custom model keeps its own). @param {import('../scenario.js').ScenarioState} state */
  withPresetShape(state) {
    return this.#withPresetShape(state);
  }

  /** @param {import('../scenario.js').ScenarioState} state */
  #withPresetShape(state) {
    const preset = this.presets.models.find((m) => m.id === state.model);
    return preset ? { ...state, shape: shapeOf(/** @type {Record<string, import('../scenario.js').FieldValue>} */ (preset)) } : state;
  }

  /** A committed scenario: into the URL (when synced), and the checks follow it. */
  #commit() {
    this.#url.push(() => this.state);
    this.#checksDirty = true;
    this.onCommit(this.state);
  }

  /** @param {string} key @param {import('../scenario.js').FieldValue | undefined} value @param {boolean} commit */
  #edit(key, value, commit) {
    this.#measure.mark();
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

  /** Selects a step (or none): its operators are highlighted in the charts. @param {number | null} step @param {{reveal?: boolean}} [options] */
  #highlight(step, { reveal = false } = {}) {
    this.#measure.mark();
    this.highlightStep = step;
    this.steps.select(step);
    this.view.selectStep(step);
    this.#frames.schedule();
    if (reveal && step) this.#revealChart(step);
  }

  /**
   * Brings chart `name` into view (a guided investigation's "Open in the explorer"), with the
   * sweep set to `sweep` ({variable, scale}) when given; before the charts have loaded, the
   * charts' block, and the chart once it is there. @param {keyof import('./chart-inputs.js').Charts} name @param {{sweep?: {variable?: import('../charts/ttft.js').SweepVariable, scale?: string} | null}} [options]
   */
  revealChart(name, { sweep = null } = {}) {
    if (this.#disposed) return;
    if (sweep) {
      this.#measure.mark();
      this.#chartInputs.sweepVariable = sweep.variable ?? this.#chartInputs.sweepVariable;
      this.#chartInputs.sweepScale = sweep.scale ?? this.#chartInputs.sweepScale;
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
    this.#charts?.sweep.setVariable(this.#chartInputs.sweepVariable);
    this.#charts?.sweep.setScale(this.#chartInputs.sweepScale);
  }

  /**
   * Brings the first chart that shows step `step`'s operators into view (the step cards sit
   * above the charts): smoothly, unless the reader asked for reduced motion. @param {number} step
   */
  #revealChart(step) {
    const name = CHART_NAMES.find((chart) => relatedToStep(chart, step));
    const element = name && this.#charts?.[name]?.element;
    if (!element) return;
    const still = window.matchMedia?.('(prefers-reduced-motion: reduce)').matches;
    element.scrollIntoView({ behavior: still ? 'auto' : 'smooth', block: 'start' });
  }

  /** Back to the default scenario (the Reset button). */
  #reset() {
    this.#measure.mark();
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

  /** @param {keyof import('./chart-inputs.js').Charts} name @param {import('prefill-trace').TraceDocument} trace */
  #renderChart(name, trace) {
    const chart = this.#charts?.[name];
    if (!chart) return;
    const stepIndex = this.highlightStep;
    this.#chartInputs.draw(name, chart, trace, {
      module: /** @type {import('./chart-inputs.js').ChartsModule} */ (this.#chartsModule), // loaded with the charts
      state: this.state,
      stepIndex,
      comparison: this.#comparison,
      width: this.#visibility.width(name),
    });
    const related = relatedToStep(name, stepIndex);
    if (chart.element.classList.contains('is-related') !== related) {
      chart.element.classList.toggle('is-related', related);
    }
  }

  /** @param {string} name */
  #isVisible(name) {
    return isPartVisible(name, this.#firstDrawn, this.#visibility);
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
      this.#messages.show(key ? { [key]: result } : {}, this.#notes);
      this.controls.setPrecisionHint(null);
      this.view.showEngineError(plainError(result, this.engine.scenarioFields()), Boolean(key));
      // Stale figures are not redrawn: only the checks follow the (rejected) scenario.
      this.#parts.clearStale((name) => name !== 'checks');
      this.#parts.show({ json, ok: false, trace: null });
    } else {
      const trace = result.value;
      this.#messages.show({}, this.#notes);
      this.controls.setPrecisionHint(trace.scenario.precision);
      this.#messages.followTrace(trace);
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
    this.#measure.measure();
  }
}
