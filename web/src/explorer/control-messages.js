// What the explorer's controls say beside them (explorer.js): the engine's refusal of a value,
// in plain words beside its field, and hints that follow the trace shown (the rate at which the
// scenario saturates, TTFT's range under the estimate).

import * as fmt from '../format.js';
import { plainError } from '../plain-words/errors.js';
import { ttftText } from './glance.js';

/** @typedef {import('prefill-trace').TraceDocument} TraceDocument */

export class ControlMessages {
  /** @type {string|null} */
  #key = null;

  /**
   * @param {import('./controls.js').Controls} controls
   * @param {import('../plain-words/errors.js').LabelTables} fields  the engine's scenarioFields()
   */
  constructor(controls, fields) {
    this.controls = controls;
    this.fields = fields;
  }

  /**
   * Shows `errors` (the engine's refusal by field) and `notes` (a permalink's rejected values)
   * beside their controls; the same messages again change nothing.
   * @param {{[field: string]: import('../plain-words/errors.js').Refusal}} errors
   * @param {{[field: string]: string}} notes
   */
  show(errors, notes) {
    const key = JSON.stringify([Object.entries(errors).map(([field, refusal]) => [field, refusal.error]), notes]);
    if (key === this.#key) return;
    this.#key = key;
    // In a sentence naming the field as its control is labelled, the engine's message after it.
    const plain = Object.fromEntries(Object.entries(errors).map(([field, refusal]) => [field, plainError(refusal, this.fields)]));
    // (A permalink's rejected value is already said in a sentence around the engine's message.)
    this.controls.setMessages(plain, notes);
  }

  /**
   * The hints that quote the trace shown.
   * @param {TraceDocument} trace
   */
  followTrace(trace) {
    this.#setRateHint(trace);
    this.#setTimingHint(trace);
  }

  /**
   * The arrival rate's hint names the rate at which this scenario saturates (utilization 1).
   * @param {TraceDocument} trace
   */
  #setRateHint(trace) {
    const facts = /** @type {import('prefill-trace').Step5Facts | undefined} */ (trace.steps[4]?.facts);
    const saturation = facts?.saturation_arrival_rate ?? 0;
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
   * @param {TraceDocument} trace
   */
  #setTimingHint(trace) {
    this.controls.setHint(
      'timing',
      trace.scenario.timing === 'estimate'
        ? `Estimate, fitted per accelerator: TTFT ${ttftText(trace.totals.ttft, trace.scenario)} (10th–90th percentile of held-out errors).`
        : this.controls.hint('timing'),
    );
  }
}
