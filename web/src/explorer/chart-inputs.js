// What each chart of the explorer (explorer.js) is drawn with: the trace, and for some of them
// more engine calls — the sweep's TTFT curve, the intensity chart's per-length curves — each
// kept while only what it does not depend on changes (a slider drag), and the held TTFT axis.

import { niceCeil, ttftSpan } from '../compare/compare.js';
import { scenarioJson, scenarioObject } from '../scenario.js';
import { figureIndex, figuresSignature } from './trace-from-figures.js';

export class ChartInputs {
  /** The sweep chart's variable and scale (its radio groups). */
  sweepVariable = 'prompt_tokens';
  sweepScale = 'log';
  // "Hold this axis" on the TTFT bar: the axis's end once held (widened, never narrowed).
  #ttftHeld = false;
  #ttftHoldTop = null;
  #lastSweepKey = null;
  #lastSweep = null;
  #curveKey = null;
  #curve = null;

  /**
   * @param {import('../engine.js').Engine} engine
   * @param {import('./trace-cache.js').TraceCache} traces  the explorer's traces (their shapes)
   */
  constructor(engine, traces) {
    this.engine = engine;
    this.traces = traces;
  }

  /** Holds the TTFT axis (or lets it follow the bar again). */
  holdTtft(held) {
    this.#ttftHeld = held;
    this.#ttftHoldTop = null;
  }

  /**
   * Draws `chart` (named `name`) for `trace`, the scenario `state`, at `width`.
   * @param {object} context  module (charts/index.js), state, stepIndex (the selected step or
   *   null), comparison (compare.js's pinned trace and axis, or null), width
   */
  draw(name, chart, trace, { module, state, stepIndex, comparison, width }) {
    const highlight = stepIndex ? new Set(trace.steps[stepIndex - 1].operators) : null;
    if (name === 'sweep') {
      chart.setVariable(this.sweepVariable);
      const sweep = this.#sweep(module, trace, state);
      if (sweep.ok) {
        chart.update({ points: sweep.value.points, variable: this.sweepVariable, trace, scale: this.sweepScale }, width);
      } else {
        chart.showError(`The engine could not sweep this scenario: ${sweep.error}`);
      }
    } else if (name === 'intensity') {
      chart.update({ trace, curve: this.#intensityCurve(module, trace, state) }, width);
    } else if (name === 'memory') {
      chart.update({ trace, related: stepIndex === 4 }, width);
    } else if (name === 'roofline') {
      chart.update({ trace, highlight, ghost: comparison?.trace ?? null }, width);
    } else if (name === 'ttft') {
      chart.update({ trace, ghost: comparison?.trace ?? null, top: comparison?.ttftTop ?? this.#heldTtftTop(trace) }, width);
    } else if (name === 'time') {
      chart.update({ trace, highlight }, width);
    } else {
      chart.update({ trace }, width);
    }
  }

  /** The held TTFT axis's end for `trace` (compare.js's rule: 1.25 × the bar, rounded up), or null. */
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
    return this.#lastSweep;
  }

  /**
   * Each projection's intensity at every prompt length of the intensity chart: one
   * traceFigures call per length, reused while only the prompt length changes (a slider drag).
   */
  #intensityCurve(module, trace, state) {
    const rest = scenarioObject(state);
    delete rest.prompt_tokens;
    // The queue does not change what a projection moves or computes: a new arrival rate keeps the curve.
    rest.arrival_rate = 0;
    const names = module.projectionNames(trace);
    const key = JSON.stringify([rest, names]);
    if (key === this.#curveKey) return this.#curve;
    // Each projection's intensity sits at the same place in the figures of every trace of this
    // trace's shape (layout 3: the document's numbers in printed order).
    const layout = this.engine.figuresLayout();
    // The shape signature of the trace shown: from the kept shapes, else computed.
    const signature = this.traces.signatureOf(trace, scenarioJson(state));
    const places = names.map((name) => {
      const index = trace.operators.findIndex((op) => op.name === name);
      return layout ? figureIndex(trace, ['operators', index, 'intensity'], layout) : -1;
    });
    const series = names.map((name) => ({ name, points: [] }));
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
