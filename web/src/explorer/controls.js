// @ts-check
// The explorer's controls: native form fields, each with a visible <label>, an optional hint
// and a place for the engine's error about its value. Reports every edit as
// `onEdit(key, value, commit)`: commit is false while a value is still moving (typing, dragging)
// and true when it settles (change event, slider release), which is when the URL is updated.

import { h, setText } from '../dom.js';
import * as fmt from '../format.js';
import { CUSTOM_MODEL, FIELDS, SHAPE_FIELDS, getField, hardwareName, parseValue } from '../scenario.js';

/** @typedef {import('prefill-trace').ScenarioField} ScenarioField */
/** @typedef {import('prefill-trace').PresetList} PresetList */
/** A menu's entries: [value, text] each. @typedef {[string, string][]} MenuList */
/** A control's input: a text field, a slider or a menu. @typedef {HTMLInputElement | HTMLSelectElement} Input */

/** The prompt slider is log2-scaled: position = 100·log2(T), 1 … 131,072 tokens. */
const SLIDER_MAX_TOKENS = 131072;
const SLIDER_SCALE = 100;

/**
 * @param {unknown} tokens
 */
export function sliderPosition(tokens) {
  const t = Math.min(SLIDER_MAX_TOKENS, Math.max(1, Number(tokens) || 1));
  return Math.round(Math.log2(t) * SLIDER_SCALE);
}

/**
 * @param {unknown} position
 */
export function sliderTokens(position) {
  return Math.round(2 ** (Number(position) / SLIDER_SCALE));
}

/**
 * @param {MenuList} list
 * @param {string | null} selected
 */
function options(list, selected) {
  return list.map(([value, text]) => h('option', { value, selected: value === selected }, text));
}

/**
 * The estimate's menus from the engine: every stack its field table names (the `stack` row), the
 * default first and `kernels` (device time, no gap) last, and
 * `auto` (the profile's own attention efficiency) plus every kernel the profiles price
 * (`attention_kernel_efficiency`), each named as the engine's field table names it
 * (scenarioFields(): the `stack` and `attention_kernel` rows); an id the table lacks shows as itself.
 * @param {PresetList} presets  listPresets() value
 * @param {{scenario: ScenarioField[]}} fields  the parsed scenarioFields()
 * @returns {{stacks: MenuList, kernels: MenuList}}
 */
export function estimateChoices(presets, fields) {
  /** @type {Set<string>} */
  const kernels = new Set();
  for (const accelerator of presets.accelerators ?? []) {
    for (const id of Object.keys(accelerator.estimate?.attention_kernel_efficiency ?? {})) kernels.add(id);
  }
  const stackRow = rowNamed(fields.scenario, 'stack');
  // Every stack the engine takes: a profile states gaps only for the stacks fitted on their own
  // rows; the others run on its pooled gap and the wider unseen-stack range (docs/model.md).
  const stacks = stackRow.choices.map((c) => c.value).filter((id) => id !== 'kernels');
  const kernelRow = rowNamed(fields.scenario, 'attention_kernel');
  /** @type {(ids: Iterable<string>, row: ScenarioField) => MenuList} */
  const named = (ids, row) => [...ids].map((id) => [id, row.choices.find((c) => c.value === id)?.label ?? id]);
  // The documented order: the default first (TensorRT-LLM; automatic), then as the engine lists them.
  /** @type {(list: MenuList, id: unknown) => MenuList} */
  const first = (list, id) => [...list.filter(([v]) => v === id), ...list.filter(([v]) => v !== id)];
  return {
    stacks: [...first(named(stacks, stackRow), stackRow.default), ...named(['kernels'], stackRow)],
    kernels: [...named([String(kernelRow.default)], kernelRow), ...named(kernels, kernelRow)],
  };
}

/**
 * The row of the engine's field table (scenarioFields()) for JSON name `name`.
 * @param {ScenarioField[]} rows
 * @param {string} name
 */
function rowNamed(rows, name) {
  const row = rows.find((r) => r.name === name);
  if (!row) throw new Error(`the engine's scenario fields have no "${name}"`);
  return row;
}

/** The hardware menu's entry for a host's own accelerator object (never a preset id: ids have no spaces). */
const HOST_HARDWARE = 'host hardware';

/** The fields placed after the prompt (placeRest()), in the order shown. */
const LATER_FIELDS = ['batch', 'chunk', 'attention', 'rate', 'timing', 'stack', 'kernel', 'devices'];
/**
 * Arrow-key steps of integer fields other than 1.
 * @type {Record<string, number>}
 */
const STEPS = { chunk: 256 };
const NUMERIC_KINDS = ['integer', 'number', 'zero_or_number'];

/**
 * The form's fields are built from the engine's field table (scenarioFields()): each control's
 * label, hint, lower bound and menu come from its row, so the page states none of them itself.
 */
export class Controls {
  // A host's own accelerator (an object in its scenario): its menu entry, and the object.
  /** @type {{option: HTMLElement, value: import('../scenario.js').FieldValue} | null} */
  #hostHardware = null;
  /** @type {Map<string, HTMLElement>} */
  #fields = new Map();
  /** @type {HTMLElement[]} */
  #rest;
  /** @type {Map<string, Input>} */
  #inputs = new Map();
  /** @type {{scenario: ScenarioField[], model: ScenarioField[]}} */
  #table;

  /**
   * @param {PresetList} presets  listPresets() value: {models, accelerators, precisions}
   * @param {{fields: {scenario: ScenarioField[], model: ScenarioField[]},
   *          onEdit: (key: string, value: import('../scenario.js').FieldValue | undefined, commit: boolean) => void,
   *          onAction: (name: string) => void}} options  fields: the parsed scenarioFields()
   */
  constructor(presets, { fields, onEdit, onAction }) {
    // Set by #promptField and #actions (below).
    /** @type {HTMLInputElement} */ this.slider;
    /** @type {HTMLElement} */ this.status;
    /** @type {HTMLInputElement} */ this.linkOutput;
    this.onEdit = onEdit;
    this.presets = presets;
    this.#table = fields;
    this.shapeSet = this.#shapeSet();
    const menus = this.#menuLists(presets);
    const prompt = this.#promptField();
    for (const key of ['model', 'hardware', 'precision', 'prompt', ...LATER_FIELDS]) {
      const numeric = NUMERIC_KINDS.includes(this.#row(key).kind);
      const input = key === 'prompt' ? prompt.input : numeric ? this.#editedNumber(key) : this.#menu(key, menus[key]);
      this.#inputs.set(key, input);
    }

    // The fields after the prompt are held back until placeRest(): the explorer lays the
    // controls out in two frames (explorer.js start()), not in one long rendering.
    this.element = h(
      'form',
      { class: 'controls', 'aria-labelledby': 'controls-heading', novalidate: true },
      h('h3', { id: 'controls-heading' }, 'Scenario'),
      this.#labelled('model'),
      this.shapeSet,
      this.#labelled('hardware'),
      this.#labelled('precision'),
      prompt.field,
    );
    this.#rest = [...LATER_FIELDS.map((key) => this.#labelled(key)), ...this.#actions(onAction)];
    this.element.addEventListener('submit', (event) => event.preventDefault());
  }

  /**
   * The table's row for control `key` ("prompt", "shape.d_model").
   * @param {string} key
   */
  #row(key) {
    if (key.startsWith('shape.')) return rowNamed(this.#table.model, key.slice(6));
    return rowNamed(this.#table.scenario, /** @type {{json: string}} */ (FIELDS.find((f) => f.key === key)).json);
  }

  /**
   * The line the engine's table puts under control `key` ('' when none).
   * @param {string} key
   */
  hint(key) {
    return this.#row(key).hint;
  }

  /**
   * The menus whose entries are not the table's choices: the presets' models and accelerators,
   * and the stacks and attention kernels the presets price (estimateChoices).
   * @param {PresetList} presets
   * @returns {{[key: string]: MenuList | undefined}}  the others' menus are the table's choices
   */
  #menuLists(presets) {
    const estimate = estimateChoices(presets, this.#table);
    return {
      model: [
        ...presets.models.map((m) => /** @type {[string, string]} */ ([m.id, `${m.name} (${fmt.parameters(m.parameters)} parameters)`])),
        [CUSTOM_MODEL, 'Custom shape…'],
      ],
      hardware: presets.accelerators.map((a) => /** @type {[string, string]} */ ([a.id, a.name])),
      // The software stack whose host gaps the estimate charges, and the attention kernel whose
      // fitted efficiency it uses (docs/model.md, "Shape and software stack"): the values are
      // the ones the engine's presets carry, not a list of our own.
      stack: estimate.stacks,
      kernel: estimate.kernels,
    };
  }

  /**
   * A menu for control `key` (`list` or the table's choices: attention, timing, …), reporting its choice.
   * @param {string} key
   * @param {MenuList} [list]
   */
  #menu(key, list = this.#row(key).choices.map((c) => [c.value, c.label])) {
    const select = /** @type {HTMLSelectElement} */ (h('select', { id: `ctl-${key}` }, options(list, null)));
    const value = () => (key === 'hardware' && select.value === HOST_HARDWARE ? this.#hostHardware?.value : select.value);
    select.addEventListener('change', () => this.onEdit(key, value(), true));
    return select;
  }

  /**
   * A number field for control `key`, reporting each edit: an integer's arrow keys step by 1
   * (or STEPS) down to the table's lower bound; any other number is typed as a decimal.
   * @param {string} key
   */
  #editedNumber(key) {
    const integral = this.#row(key).kind === 'integer';
    const input = this.#numberInput(key.startsWith('shape.') ? `ctl-shape-${key.slice(6)}` : `ctl-${key}`, {
      step: integral ? STEPS[key] ?? 1 : null,
      min: integral ? this.#row(key).min : null,
      decimal: !integral,
    });
    input.addEventListener('input', () => this.onEdit(key, parseValue(input.value, true), false));
    input.addEventListener('change', () => this.onEdit(key, parseValue(input.value, true), true));
    return input;
  }

  /** Prompt tokens: a log-scaled slider and an exact number field, kept in step. */
  #promptField() {
    const row = this.#row('prompt');
    const slider = /** @type {HTMLInputElement} */ (h('input', {
      id: 'ctl-prompt-range',
      type: 'range',
      min: 0,
      max: sliderPosition(SLIDER_MAX_TOKENS),
      step: 5,
    }));
    const input = this.#numberInput('ctl-prompt', { step: 1, min: row.min });
    slider.addEventListener('input', () => {
      const tokens = sliderTokens(slider.value);
      input.value = String(tokens);
      slider.setAttribute('aria-valuetext', `${fmt.count(tokens)} tokens`);
      this.onEdit('prompt', tokens, false);
    });
    slider.addEventListener('change', () => this.onEdit('prompt', sliderTokens(slider.value), true));
    input.addEventListener('input', () => {
      const value = parseValue(input.value, true);
      this.#syncSlider(value);
      this.onEdit('prompt', value, false);
    });
    input.addEventListener('change', () => this.onEdit('prompt', parseValue(input.value, true), true));
    this.slider = slider;
    const hint = `Log slider ${fmt.count(row.min)}–${fmt.count(SLIDER_MAX_TOKENS)}; exact up to ${fmt.count(row.max)}.`;
    const field = h(
      'div',
      { class: 'field field--prompt', 'data-field': 'prompt' },
      h(
        'div',
        { class: 'prompt-row' },
        h('label', { for: 'ctl-prompt-range' }, row.label),
        h(
          'span',
          { class: 'prompt-exact' },
          h('label', { for: 'ctl-prompt' }, h('span', { class: 'visually-hidden' }, `${row.label} `), '(exact)'),
          input,
        ),
      ),
      slider,
      h('p', { class: 'hint', id: 'ctl-prompt-hint' }, hint),
      h('p', { class: 'field-error', id: 'ctl-prompt-error', hidden: true }),
    );
    input.setAttribute('aria-describedby', 'ctl-prompt-hint ctl-prompt-error');
    slider.setAttribute('aria-describedby', 'ctl-prompt-hint ctl-prompt-error');
    this.#fields.set('prompt', field);
    return { field, input };
  }

  /** A custom model's shape, shown when "Custom shape…" is chosen: labels and symbols from the table. */
  #shapeSet() {
    const shapeFields = SHAPE_FIELDS.map(({ key: name }) => {
      const key = `shape.${name}`;
      const row = this.#row(key);
      /** @type {Input} */
      let input;
      if (row.kind === 'choice') {
        const select = /** @type {HTMLSelectElement} */ (h('select', { id: `ctl-shape-${name}` }, options(row.choices.map((c) => [c.value, c.label]), null)));
        select.addEventListener('change', () => this.onEdit(key, select.value, true));
        input = select;
      } else {
        input = this.#editedNumber(key);
      }
      this.#inputs.set(key, input);
      const label = row.symbol ? [row.label, ' ', h('span', { class: 'symbol' }, `(${row.symbol})`)] : row.label;
      return this.#field(key, label, input);
    });
    return h(
      'fieldset',
      { class: 'shape-fields', hidden: true },
      h('legend', {}, 'Custom model shape'),
      h('div', { class: 'shape-grid' }, shapeFields),
    );
  }

  /**
   * The link, reset and download buttons, the link's output and the status line.
   * @param {(name: string) => void} onAction
   */
  #actions(onAction) {
    this.status = h('p', { class: 'action-status', role: 'status', 'aria-live': 'polite' });
    this.linkOutput = /** @type {HTMLInputElement} */ (h('input', {
      type: 'text',
      class: 'link-output',
      readonly: true,
      hidden: true,
      'aria-label': 'Link to this scenario',
    }));
    // `hiddenPrefix` completes the visible text for screen readers ("Download trace as JSON"),
    // so the accessible name contains what is seen (WCAG 2.5.3, label in name), which an
    // aria-label replacing it did not.
    /** @type {(name: string, text: string, hiddenPrefix?: string | null) => HTMLElement} */
    const button = (name, text, hiddenPrefix = null) => {
      const b = h(
        'button',
        { type: 'button', class: 'button button--small', 'data-action': name },
        hiddenPrefix ? h('span', { class: 'visually-hidden' }, hiddenPrefix) : null,
        text,
      );
      b.addEventListener('click', () => onAction(name));
      return b;
    };
    return [
      h('div', { class: 'actions' }, button('copy-link', 'Copy link'), button('reset', 'Reset')),
      h(
        'div',
        { class: 'actions' },
        h('span', { class: 'actions-label' }, 'Download trace'),
        button('download-json', 'JSON', 'Download trace as'),
        button('download-csv', 'CSV', 'Download trace as'),
      ),
      this.linkOutput,
      this.status,
    ];
  }

  /**
   * Control `key`'s field with the table's label and hint.
   * @param {string} key
   */
  #labelled(key) {
    const row = this.#row(key);
    return this.#field(key, row.label, /** @type {Input} */ (this.#inputs.get(key)), row.hint || null);
  }

  /** Appends the fields held back at construction (the batch size onwards, and the actions). */
  placeRest() {
    this.element.append(...this.#rest.splice(0));
  }

  /**
   * A host's accelerator object in the hardware menu, by its name (scenario.js hardwareName), chosen.
   * @param {HTMLSelectElement} select
   * @param {import('../scenario.js').FieldValue} value
   */
  #showHostHardware(select, value) {
    const name = hardwareName(value, this.presets.accelerators);
    if (!this.#hostHardware) {
      this.#hostHardware = { option: h('option', { value: HOST_HARDWARE }, name), value };
      select.prepend(this.#hostHardware.option);
    }
    const host = this.#hostHardware;
    host.value = value;
    setText(host.option, name);
    select.value = HOST_HARDWARE;
  }

  /**
   * A number field. It is a text field (inputmode brings up a numeric keyboard), not
   * type=number: a number field silently empties what it cannot parse, so "abc" or "1e" would
   * reach the engine as a missing value; here the engine sees the text and names the field.
   * ArrowUp/ArrowDown step an integer field as a number field would.
   * @param {string} id
   * @param {{step?: number | null, min?: number | null, decimal?: boolean}} [options]
   * @returns {HTMLInputElement}
   */
  #numberInput(id, { step = null, min = null, decimal = false } = {}) {
    const input = /** @type {HTMLInputElement} */ (h('input', {
      id,
      type: 'text',
      class: 'number-field',
      inputmode: decimal ? 'decimal' : 'numeric',
      autocomplete: 'off',
      spellcheck: 'false',
    }));
    if (step !== null) {
      input.addEventListener('keydown', (event) => {
        if (event.key !== 'ArrowUp' && event.key !== 'ArrowDown') return;
        const value = parseValue(input.value, true);
        if (typeof value !== 'number' || !Number.isFinite(value)) return;
        event.preventDefault();
        const next = Math.round(value / step) * step + (event.key === 'ArrowUp' ? step : -step);
        input.value = String(min === null ? next : Math.max(min, next));
        input.dispatchEvent(new Event('input', { bubbles: true }));
        input.dispatchEvent(new Event('change', { bubbles: true }));
      });
    }
    return input;
  }

  /**
   * @param {string} key
   * @param {unknown} labelText  text, or text and nodes
   * @param {Input} input
   * @param {string | null} [hint]
   */
  #field(key, labelText, input, hint = null) {
    const id = input.id;
    const describedBy = [hint ? `${id}-hint` : null, `${id}-error`].filter(Boolean).join(' ');
    input.setAttribute('aria-describedby', describedBy);
    const field = h(
      'div',
      { class: 'field', 'data-field': key },
      h('label', { for: id }, labelText),
      input,
      hint ? h('p', { class: 'hint', id: `${id}-hint` }, hint) : null,
      h('p', { class: 'field-error', id: `${id}-error`, hidden: true }),
    );
    this.#fields.set(key, field);
    return field;
  }

  /** @param {unknown} tokens */
  #syncSlider(tokens) {
    if (typeof tokens !== 'number' || !Number.isFinite(tokens)) return;
    this.slider.value = String(sliderPosition(tokens));
    this.slider.setAttribute('aria-valuetext', `${fmt.count(tokens)} tokens`);
  }

  /**
   * Sets control `key` to `value` as a reader would (a dragged point on a chart, charts/drag.js):
   * the field (and the prompt's slider) shows it, and the edit is reported as the field's own
   * input and change events report theirs.
   * @param {string} key
   * @param {number} value
   * @param {boolean} commit
   */
  setValue(key, value, commit) {
    const input = this.#inputs.get(key);
    if (!input) return;
    input.value = String(value);
    if (key === 'prompt') this.#syncSlider(value);
    this.onEdit(key, value, commit);
  }

  /**
   * Shows `state` in the controls (initial load, back/forward, reset).
   * @param {import('../scenario.js').ScenarioState} state
   */
  setState(state) {
    for (const [key, input] of this.#inputs) {
      const value = getField(state, key);
      if (key === 'hardware' && value && typeof value === 'object') {
        this.#showHostHardware(/** @type {HTMLSelectElement} */ (input), value);
        continue;
      }
      input.value = value === null || value === undefined ? '' : String(value);
    }
    this.#syncSlider(state.prompt);
    this.shapeSet.hidden = state.model !== CUSTOM_MODEL;
  }

  /**
   * Shows the custom-shape fields only for a custom model.
   * @param {boolean} visible
   */
  showShape(visible) {
    if (this.shapeSet.hidden !== !visible) this.shapeSet.hidden = !visible;
  }

  /**
   * Shows messages beside controls: `errors` (the engine rejects the value) and `notes`
   * (a permalink value that was replaced by the default). Other fields are cleared.
   * @param {Record<string, string>} errors
   * @param {Record<string, string>} [notes]
   */
  setMessages(errors, notes = {}) {
    for (const [key, field] of this.#fields) {
      const box = /** @type {HTMLElement} */ (field.querySelector('.field-error'));
      const input = /** @type {Input} */ (this.#inputs.get(key));
      const error = errors[key];
      const note = notes[key];
      if (error) {
        box.replaceChildren(error);
        box.className = 'field-error';
      } else if (note) {
        box.replaceChildren(`The link's value was not used — ${note}. Showing the default instead.`);
        box.className = 'field-error field-error--note';
      }
      box.hidden = !error && !note;
      if (error) input.setAttribute('aria-invalid', 'true');
      else input.removeAttribute('aria-invalid');
    }
  }

  /**
   * Replaces the hint under field `key` (the arrival rate's names the scenario's saturation rate).
   * @param {string} key
   * @param {string} text
   */
  setHint(key, text) {
    const hint = this.#fields.get(key)?.querySelector('.hint');
    if (hint) setText(hint, text);
  }

  /**
   * The hint under "Precision": what the chosen format means for each tensor (from the trace).
   * @param {{weights: string, activations: string, kv: string} | null | undefined} precision
   */
  setPrecisionHint(precision) {
    const hint = /** @type {HTMLElement} */ (this.#fields.get('precision')?.querySelector('.hint'));
    setText(
      hint,
      precision
        ? `Weights ${precision.weights} · activations ${precision.activations} · KV ${precision.kv}`
        : this.hint('precision'),
    );
  }

  /**
   * Says what a button did (and shows the link when the clipboard is unavailable).
   * @param {string} message
   * @param {string | null} [link]
   */
  say(message, link = null) {
    this.status.replaceChildren(message);
    this.linkOutput.hidden = link === null;
    if (link !== null) {
      this.linkOutput.value = link;
      this.linkOutput.select();
    }
  }
}
