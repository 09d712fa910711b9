// @ts-check
// The explorer's scenario: the controls' values, their query-parameter names in a permalink,
// and the scenario JSON handed to the engine. The page never validates a value itself (beyond
// reading text as a number): the engine does, and its error names the JSON path, which
// `fieldOfError` maps back to the control that holds the value.

/**
 * The explorer's starting scenario: a current 8B model on a current datacenter GPU; the other
 * values are the engine's defaults (scenarioFields(); tests/js/scenario-fields.test.mjs).
 */
export const DEFAULTS = Object.freeze({
  model: 'llama-3.1-8b',
  hardware: 'h100-sxm',
  precision: 'bf16',
  prompt: 2048,
  batch: 1,
  chunk: 0,
  attention: 'fused',
  rate: 0,
  timing: 'bound',
  stack: 'tensorrt-llm',
  kernel: 'auto',
  devices: 1,
});

/** The value of "Model" that means "use the custom shape fields". */
/**
 * A value as the explorer holds it for the engine to judge: a menu's id or a number from a
 * control, the text itself when it does not read as one (so the engine's error names it), null
 * when empty, or whatever JSON a host's scenario gave (a custom accelerator object, say).
 * @typedef {string | number | boolean | null | object} FieldValue
 */
/** @typedef {keyof typeof DEFAULTS} ScenarioKey */
/**
 * The explorer's scenario: one value per control, and the custom model's shape.
 * @typedef {{[K in ScenarioKey]: FieldValue} & {shape: Record<string, FieldValue>}} ScenarioState
 */
/** A control's key: a field of ScenarioState, or "shape.<member>" for the custom shape. @typedef {string} ControlKey */
/** @typedef {{key: ScenarioKey, param: string, json: string, numeric?: boolean}} ScenarioFieldSpec */
export const CUSTOM_MODEL = 'custom';

/**
 * Scenario fields: state key, query parameter, engine JSON key.
 * @type {readonly ScenarioFieldSpec[]}
 */
export const FIELDS = Object.freeze([
  { key: 'model', param: 'model', json: 'model' },
  { key: 'hardware', param: 'hardware', json: 'hardware' },
  { key: 'precision', param: 'precision', json: 'precision' },
  { key: 'prompt', param: 'prompt', json: 'prompt_tokens', numeric: true },
  { key: 'batch', param: 'batch', json: 'batch', numeric: true },
  { key: 'chunk', param: 'chunk', json: 'chunk_tokens', numeric: true },
  { key: 'attention', param: 'attention', json: 'attention' },
  { key: 'rate', param: 'rate', json: 'arrival_rate', numeric: true },
  { key: 'timing', param: 'timing', json: 'timing' },
  { key: 'stack', param: 'stack', json: 'stack' },
  { key: 'kernel', param: 'kernel', json: 'attention_kernel' },
  { key: 'devices', param: 'tp', json: 'tensor_parallel', numeric: true },
]);

/**
 * A custom model's shape (engine JSON keys under /model; also the query parameter names): the
 * members the explorer has a control for. Labels, symbols, bounds and menus are the engine's
 * (scenarioFields(), explorer/controls.js).
 */
export const SHAPE_FIELDS = Object.freeze([
  { key: 'layers', numeric: true },
  { key: 'd_model', numeric: true },
  { key: 'query_heads', numeric: true },
  { key: 'kv_heads', numeric: true },
  { key: 'head_dim', numeric: true },
  { key: 'd_ff', numeric: true },
  { key: 'mlp', numeric: false },
  { key: 'vocab', numeric: true },
  { key: 'experts', numeric: true },
  { key: 'active_experts', numeric: true },
]);

/**
 * The one rule for numbers typed as text, shared with the engine's CLI (include/prefill_trace/number_text.hpp,
 * docs/robustness.md "Numbers typed as text"): plain decimal notation after removing surrounding
 * ASCII whitespace. Hexadecimal ("0x800"), "Infinity", "NaN", separators and values beyond double
 * range ("1e999") are not numbers. tests/data/number-text.json holds the cases both must agree on.
 */
export const DECIMAL_TEXT = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
const ASCII_SPACE_AROUND = /^[\t\n\v\f\r ]+|[\t\n\v\f\r ]+$/g;

/**
 * The value of `text` under the rule above, or null when it is not such a number.
 * @param {unknown} text
 * @returns {number | null}
 */
export function readDecimal(text) {
  const trimmed = String(text ?? '').replace(ASCII_SPACE_AROUND, '');
  if (!DECIMAL_TEXT.test(trimmed)) return null;
  const value = Number(trimmed);
  return Number.isFinite(value) ? value : null;
}

/** A digit, a group separator (comma, underscore, apostrophe, a space of any kind), a digit. */
const DIGIT_GROUP = /\d([,_'\s\u00a0\u202f])\d/u;

/**
 * A typed answer under the rule above, or the reason it is not read, naming what is wrong:
 * digit-group separators are refused by name, because "1,5" is fifteen to one reader and one
 * and a half to another (the checks' reader used to drop them and read 15).
 * @returns {{value: number, problem: null} | {value: null, problem: string}}
 * @param {unknown} text
 */
export function readTypedNumber(text) {
  const value = readDecimal(text);
  if (value !== null) return { value, problem: null };
  const trimmed = String(text ?? '').replace(ASCII_SPACE_AROUND, '');
  if (trimmed === '') return { value: null, problem: 'Enter a number first, for example 1.5e9.' };
  const separator = DIGIT_GROUP.exec(trimmed)?.[1];
  if (separator !== undefined) {
    const name = separator === ',' ? 'a comma' : separator === '_' ? 'an underscore' : separator === "'" ? 'an apostrophe' : 'a space';
    return {
      value: null,
      problem: `"${trimmed.slice(0, 40)}" has a digit-group separator (${name}), which is not read: write the digits alone, with "." for a decimal point (1500000 or 1.5e6).`,
    };
  }
  return { value: null, problem: `"${trimmed.slice(0, 40)}" is not a decimal number; write digits with "." for a decimal point, for example 1.5e9.` };
}

/**
 * Text from a field or a query parameter as the engine should see it: a number when it reads as
 * one under the rule above, null when empty, otherwise the text itself (so the engine's message
 * names the field and the wrong type). "NaN", "Infinity", "0x800" and "1e999" stay text.
 * @param {string | null} text
 * @param {boolean | undefined} numeric
 * @returns {string | number | null}
 */
export function parseValue(text, numeric) {
  if (!numeric) return text;
  const trimmed = String(text ?? '').replace(ASCII_SPACE_AROUND, '');
  if (trimmed === '') return null;
  return readDecimal(trimmed) ?? trimmed;
}

/**
 * The name to show for the scenario's `hardware`: a preset's name (or its id when unknown), or
 * for a host's own accelerator object (the CLI's custom hardware: `{"preset"?, "name"?, …}`)
 * its `name`, else its preset's name marked "(modified)", else "Custom accelerator" — the names
 * the engine gives it (src/scenario/scenario.cpp read_accelerator), never "[object Object]".
 * @param {unknown} hardware  the scenario's value (a preset id, or a host's accelerator object)
 * @param {Array<{id: string, name: string}>} accelerators  listPresets().accelerators
 */
export function hardwareName(hardware, accelerators = []) {
  /** @param {unknown} id */
  const presetName = (id) => accelerators.find((a) => a.id === id)?.name ?? null;
  if (hardware && typeof hardware === 'object' && !Array.isArray(hardware)) {
    const custom = /** @type {{name?: unknown, preset?: unknown}} */ (hardware);
    if (typeof custom.name === 'string' && custom.name.trim()) return custom.name.trim();
    const base = typeof custom.preset === 'string' ? presetName(custom.preset) ?? custom.preset : null;
    return base ? `${base} (modified)` : 'Custom accelerator';
  }
  return presetName(hardware) ?? String(hardware ?? '');
}

/**
 * The structural problem of a host's scenario (stateFromScenario's), before any explorer exists; null when none.
 * @param {unknown} scenario
 */
export function scenarioShapeError(scenario) {
  const result = stateFromScenario(scenario, defaultState({}));
  return result.ok ? null : result.error;
}

/**
 * The shape fields of a preset model record (from listPresets).
 * @param {Record<string, FieldValue> | null | undefined} model
 * @returns {Record<string, FieldValue>}
 */
export function shapeOf(model) {
  return Object.fromEntries(SHAPE_FIELDS.map(({ key }) => [key, model?.[key] ?? null]));
}

/**
 * The default state; `defaultShape` fills the custom-shape fields.
 * @param {Record<string, FieldValue>} defaultShape
 * @returns {ScenarioState}
 */
export function defaultState(defaultShape) {
  return { ...DEFAULTS, shape: { ...defaultShape } };
}

/**
 * The scenario object the engine reads.
 * @param {ScenarioState} state
 */
export function scenarioObject(state) {
  /** @type {Record<string, FieldValue>} */
  const scenario = {};
  for (const field of FIELDS) scenario[field.json] = state[field.key];
  if (state.model === CUSTOM_MODEL) scenario.model = { ...state.shape };
  return scenario;
}

/** @param {ScenarioState} state */
export function scenarioJson(state) {
  return JSON.stringify(scenarioObject(state));
}

/**
 * The control holding the value an engine error is about, from the error's JSON path
 * ("/prompt_tokens" → "prompt", "/model/d_model" → "shape.d_model"); null when no control holds it.
 * @param {string | null | undefined} path
 * @returns {ControlKey | null}
 */
export function fieldOfError(path) {
  const pointer = String(path ?? '');
  if (!pointer.startsWith('/')) return null;
  const [top, sub] = pointer.slice(1).split('/');
  if (top === 'model' && sub && SHAPE_FIELDS.some((f) => f.key === sub)) return `shape.${sub}`;
  return FIELDS.find((f) => f.json === top)?.key ?? null;
}

/**
 * Reads a field of the state by control key ("prompt" or "shape.d_model").
 * @param {ScenarioState} state
 * @param {ControlKey} key
 * @returns {FieldValue}
 */
export function getField(state, key) {
  return key.startsWith('shape.') ? state.shape[key.slice(6)] : state[/** @type {ScenarioKey} */ (key)];
}

/**
 * A copy of `state` with one field changed.
 * @param {ScenarioState} state
 * @param {ControlKey} key
 * @param {FieldValue | undefined} value  undefined: a menu with no value (the key is then left out of the JSON)
 * @returns {ScenarioState}
 */
export function withField(state, key, value) {
  // An undefined value is kept as the reader's edit gave it (JSON then leaves the key out).
  const v = /** @type {FieldValue} */ (value);
  if (key.startsWith('shape.')) return { ...state, shape: { ...state.shape, [key.slice(6)]: v } };
  return { ...state, [key]: v };
}

/**
 * Query parameters for a permalink, in a fixed order; `keep` carries unrelated parameters.
 * @param {ScenarioState} state
 */
export function toQuery(state, keep = new URLSearchParams()) {
  const params = new URLSearchParams();
  for (const [name, value] of keep) {
    if (!isScenarioParam(name)) params.append(name, value);
  }
  for (const field of FIELDS) params.set(field.param, String(state[field.key] ?? ''));
  if (state.model === CUSTOM_MODEL) {
    for (const field of SHAPE_FIELDS) params.set(field.key, String(state.shape[field.key] ?? ''));
  }
  return params;
}

/**
 * True for a query parameter that belongs to the scenario.
 * @param {string} name
 */
export function isScenarioParam(name) {
  return FIELDS.some((f) => f.param === name) || SHAPE_FIELDS.some((f) => f.key === name);
}

/**
 * The state a permalink describes, on top of `base`. `fromUrl` lists the control keys the URL
 * set, so an invalid value can be reported and replaced by the default for that field alone.
 * @param {URLSearchParams} params
 * @param {ScenarioState} base
 */
export function fromQuery(params, base) {
  let state = { ...base, shape: { ...base.shape } };
  /** @type {Set<ControlKey>} */
  const fromUrl = new Set();
  for (const field of FIELDS) {
    if (!params.has(field.param)) continue;
    state = withField(state, field.key, parseValue(params.get(field.param), field.numeric));
    fromUrl.add(field.key);
  }
  if (state.model === CUSTOM_MODEL) {
    for (const field of SHAPE_FIELDS) {
      if (!params.has(field.key)) continue;
      state = withField(state, `shape.${field.key}`, parseValue(params.get(field.key), field.numeric));
      fromUrl.add(`shape.${field.key}`);
    }
  }
  return { state, fromUrl };
}

/**
 * True when two states describe the same scenario.
 * @param {ScenarioState} a
 * @param {ScenarioState} b
 */
export function sameScenario(a, b) {
  return scenarioJson(a) === scenarioJson(b);
}

/**
 * The state a scenario describes, in the CLI's `--scenario` JSON shape (engine JSON keys:
 * `{"model": "llama-3.1-8b" | {shape}, "hardware": "h100-sxm", "prompt_tokens": 2048, …}`), on
 * top of `base` (fields not named keep `base`'s values). The explorer has a control for the keys
 * of FIELDS and, for a custom model, SHAPE_FIELDS; any other key is refused by JSON path, so a
 * host never sees a scenario silently lose a field. Values are the engine's to judge.
 * @param {unknown} scenario
 * @param {ScenarioState} base
 * @returns {{ok: true, state: ScenarioState} | {ok: false, error: string}}
 */
export function stateFromScenario(scenario, base) {
  if (!scenario || typeof scenario !== 'object' || Array.isArray(scenario)) {
    return { ok: false, error: '/: must be a JSON object (the CLI --scenario format)' };
  }
  const known = FIELDS.map((f) => f.json);
  let state = { ...base, shape: { ...base.shape } };
  for (const [name, value] of Object.entries(scenario)) {
    const field = FIELDS.find((f) => f.json === name);
    if (!field) {
      return { ok: false, error: `/${name}: the explorer has no control for this field (it takes ${known.join(', ')})` };
    }
    if (name === 'model' && value && typeof value === 'object' && !Array.isArray(value)) {
      for (const [key, shapeValue] of Object.entries(value)) {
        if (!SHAPE_FIELDS.some((f) => f.key === key)) {
          const shapeKeys = SHAPE_FIELDS.map((f) => f.key).join(', ');
          return { ok: false, error: `/model/${key}: the explorer has no control for this field (a custom model takes ${shapeKeys})` };
        }
        state = withField(state, `shape.${key}`, shapeValue);
      }
      state = withField(state, 'model', CUSTOM_MODEL);
    } else if (name === 'model' && value === CUSTOM_MODEL) {
      return { ok: false, error: `/model: "${CUSTOM_MODEL}" is not a model id; give the shape as an object` };
    } else {
      state = withField(state, field.key, value);
    }
  }
  return { ok: true, state };
}
