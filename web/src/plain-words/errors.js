// An engine error in a sentence for people, still naming the field. The sentence names the
// field as its control is labelled ("Requests per batch must be a whole number") — the label
// from the engine's field tables (scenarioFields(): the rows with a control) — and says the
// problem from the refusal's code and detail (bounds, expected kind, the type found); the
// engine's own message follows it, so nothing it said is lost. The message itself is never
// read: its wording may change (include/prefill_trace/result.hpp).

import { groupedDecimal } from '../format.js';

/**
 * @typedef {import('../engine.js').PageRefusal & {error: string}} Refusal
 * @typedef {{label: string, name: string}} LabelledField
 * @typedef {{scenario: LabelledField[], model: LabelledField[]}} LabelTables
 */

/**
 * The label of the control that holds the value at `path`: a scenario field ("/batch") or a
 * model shape's ("/model/layers") with a control; "" for any other path.
 * @param {string} path
 * @param {LabelTables|null} fields  the engine's scenarioFields()
 */
function fieldLabel(path, fields) {
  const steps = path.split('/');
  if (!fields || steps[0] !== '') return '';
  // "/batch": a scenario field; "/model/layers": a model shape's.
  const [rows, name] = steps.length === 2 ? [fields.scenario, steps[1]] : steps.length === 3 && steps[1] === 'model' ? [fields.model, steps[2]] : [[], ''];
  return rows.find((row) => row.name === name)?.label ?? '';
}

/**
 * A bound as the engine's message prints it, grouped: whole numbers in full (an integer
 * field's always, a number field's below 10^15), others as JavaScript writes them (the
 * engine's %g, for the bounds the page's fields have: 1e-30).
 * @param {number|null} value
 * @param {boolean} integer
 */
function boundText(value, integer) {
  if (value === null) return '';
  return Number.isInteger(value) && value >= 0 && (integer || value < 1e15) ? groupedDecimal(value) : String(value);
}

/**
 * The sentence for a refusal of the field labelled `label`.
 * @param {string} label
 * @param {Refusal} refusal
 */
function sentence(label, { code, detail }) {
  const { expected, found, minimum, maximum, zeroAllowed } = detail;
  if (code === 'out_of_range' && expected === 'integer') {
    return `${label} must be a whole number from ${boundText(minimum, true)} to ${boundText(maximum, true)}.`;
  }
  if (code === 'out_of_range' && expected === 'number') {
    const range = `between ${boundText(minimum, false)} and ${boundText(maximum, false)}`;
    return `${label} must be ${zeroAllowed ? `0 or ${range}` : range}.`;
  }
  if (code === 'wrong_type' && expected === 'integer') {
    if (found === 'null') return `${label} is empty: it must be a whole number.`;
    return `${label} must be a whole number${found === 'number' ? ', without a fraction' : ''}.`;
  }
  if (code === 'wrong_type' && expected === 'number') {
    return found === 'null' ? `${label} is empty: it must be a number.` : `${label} must be a number.`;
  }
  return `${label}: this value is not accepted.`;
}

/**
 * The sentence for `refusal` (an engine.js result that is not ok), or its message itself when
 * no control holds the value it names.
 * @param {Refusal} refusal
 * @param {LabelTables|null} fields  the engine's scenarioFields()
 * @returns {string}
 */
export function plainError(refusal, fields) {
  const text = String(refusal.error);
  const label = fieldLabel(refusal.path, fields);
  return label ? `${sentence(label, refusal)} (${text})` : text;
}
