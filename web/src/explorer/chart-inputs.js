// @ts-check
// What each chart of the explorer (explorer.js) is drawn with: the trace, and for some of them
// more engine calls — the sweep's TTFT curve, the intensity chart's per-length curves — each
// kept while only what it does not depend on changes (a slider drag), and the held TTFT axis.

import { niceCeil, ttftSpan } from '../compare/compare.js';
import { scenarioJson, scenarioObject } from '../scenario.js';
import { figureIndex, figuresSignature } from './trace-from-figures.js';

/** @typedef {import('prefill-trace').TraceDocument} TraceDocument */
/** @typedef {import('../scenario.js').ScenarioState} ScenarioState */
/** The charts' module (charts/index.js, loaded after the first trace). @typedef {typeof import('../charts/index.js')} ChartsModule */
/** The explorer's charts, by name. @typedef {ReturnType<ChartsModule['createCharts']>} Charts */
/** @typedef {import('../engine.js').JsonOutcome<import('prefill-trace').SweepDocument>} SweepOutcome */
/**
 * What a chart is drawn with besides the trace.
 * @typedef {object} DrawContext
 * @property {ChartsModule} module
 * @property {ScenarioState} state
 * @property {number | null} stepIndex  the selected step (1–5), or null
 * @property {import('../compare/compare.js').Comparison | null} comparison  compare.js's pinned trace and axis
 * @property {number} [width]
 */

export class ChartInputs {
  /** The sweep chart's variable and scale (its radio groups). */
  /** @type {import('../charts/ttft.js').SweepVariable} */
  sweepVariable = 'prompt_tokens';
  sweepScale = 'log';
  // "Hold this axis" on the TTFT bar: the axis's end once held (widened, never narrowed).
  #ttftHeld = false;
  /** @type {number | null} */
  #ttftHoldTop = null;
  /** @type {string | null} */
  #lastSweepKey = null;
  /** @type {SweepOutcome | null} */
  #lastSweep = null;
  /** @type {string | null} */
  #curveKey = null;
  /** @type {import('../charts/intensity.js').IntensityCurve | null} */
  #curve = null;

  /**
   * @param {import('../engine.js').Engine} engine
   * @param {import('./trace-cache.js').TraceCache} traces  the explorer's traces (their shapes)
   */
  constructor(engine, traces) {
    this.engine = engine;
    this.traces = traces;
  }

  /**
   * Holds the TTFT axis (or lets it follow the bar again).
   * @param {boolean} held
   */
  holdTtft(held) {
    this.#ttftHeld = held;
    this.#ttftHoldTop = null;
  }

  /**
   * Draws `chart` (named `name`) for `trace`, the scenario `state`, at `width`.
   * @param {keyof Charts} name
   * @param {Charts[keyof Charts]} chart  the chart of that name
   * @param {TraceDocument} trace
   * @param {DrawContext} context
   */
  draw(name, chart, trace, { module, state, stepIndex, comparison, width }) {
    const highlight = stepIndex ? new Set(trace.steps[stepIndex - 1].operators) : null;
    if (name === 'sweep') {
      const sweepChart = /** @type {Charts['sweep']} */ (chart);
      sweepChart.setVariable(this.sweepVariable);
      const sweep = this.#sweep(module, trace, state);
      if (sweep.ok) {
        sweepChart.update({ points: sweep.value.points, variable: this.sweepVariable, trace, scale: this.sweepScale }, width);
      } else {
        sweepChart.showError(`The engine could not sweep this scenario: ${sweep.error}`);
      }
    } else if (name === 'intensity') {
    /** @type {Charts['intensity']} */ (chart).update({ trace, curve: this.#intensityCurve(module, trace, state) }, width);
    } else if (name === 'memory') {
    /** @type {Charts['memory']} */ (chart).update({ trace, related: stepIndex === 4 }, width);
    } else if (name === 'roofline') {
    /** @type {Charts['roofline']} */ (chart).update({ trace, highlight, ghost: comparison?.trace ?? null }, width);
    } else if (name === 'ttft') {
    /** @type {Charts['ttft']} */ (chart).update({ trace, ghost: comparison?.trace ?? null, top: comparison?.ttftTop ?? this.#heldTtftTop(trace) }, width);
    } else if (name === 'time') {
    /** @type {Charts['time']} */ (chart).update({ trace, highlight }, width);
    } else {
    /** @type {Charts['bytes']} */ (chart).update({ trace }, width);
    }
  }

  /** The held TTFT axis's end for `trace` (compare.js's rule: 1.25 × the bar, rounded up), or null. */
  /** @param {TraceDocument} trace */
  #heldTtftTop(trace) {
    if (!this.#ttftHeld) return null;
    const span = ttftSpan(trace);
    if (this.#ttftHoldTop === null || span > this.#ttftHoldTop) this.#ttftHoldTop = niceCeil(span * 1.25);
    return this.#ttftHoldTop;
  }

  /**
   * TTFT at hundreds of values of the swept variable, in one engine call. The curve depends on
   * the rest of the scenario, not on the swept value itself (its marker comes from the trace),
   * so moving only that value reuses the last sweep.
   */
  /**
   * @param {ChartsModule} module
   * @param {TraceDocument} trace
   * @param {ScenarioState} state
   * @returns {SweepOutcome}
   */
  #sweep(module, trace, state) {
    const variable = this.sweepVariable;
    const values = module.sweepValues(variable, trace);
    const rest = scenarioObject(state);
    delete rest[variable];
    const key = JSON.stringify([variable, rest, values.length, values[0], values[values.length - 1]]);
    if (key !== this.#lastSweepKey) {
      this.#lastSweepKey = key;
      this.#lastSweep = this.engine.sweep(scenarioJson(state), variable, values);
    }
    return /** @type {SweepOutcome} */ (this.#lastSweep); // set with #lastSweepKey
  }

  /**
   * Each projection's intensity at every prompt length of the intensity chart: one
   * traceFigures call per length, reused while only the prompt length changes (a slider drag).
   */
  /**
   * @param {ChartsModule} module
   * @param {TraceDocument} trace
   * @param {ScenarioState} state
   * @returns {import('../charts/intensity.js').IntensityCurve}
   */
  #intensityCurve(module, trace, state) {
    const rest = scenarioObject(state);
    delete rest.prompt_tokens;
    // The queue does not change what a projection moves or computes: a new arrival rate keeps the curve.
    rest.arrival_rate = 0;
    const names = module.projectionNames(trace);
    const key = JSON.stringify([rest, names]);
    if (key === this.#curveKey && this.#curve) return this.#curve; // set with #curveKey
    // Each projection's intensity sits at the same place in the figures of every trace of this
    // trace's shape (layout 3: the document's numbers in printed order).
    const layout = this.engine.figuresLayout();
    // The shape signature of the trace shown: from the kept shapes, else computed.
    const signature = this.traces.signatureOf(trace, scenarioJson(state));
    const places = names.map((name) => {
      const index = trace.operators.findIndex((op) => op.name === name);
      return layout ? figureIndex(trace, ['operators', index, 'intensity'], layout) : -1;
    });
    const series = names.map((name) => ({ name, points: /** @type {import('../charts/intensity.js').CurvePoint[]} */ ([]) }));
    for (const prompt of module.curvePrompts()) {
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
}
