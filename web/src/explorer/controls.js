// The explorer's controls: native form fields, each with a visible <label>, an optional hint
// and a place for the engine's error about its value. Reports every edit as
// `onEdit(key, value, commit)`: commit is false while a value is still moving (typing, dragging)
// and true when it settles (change event, slider release), which is when the URL is updated.

import { h, setText } from '../dom.js';
import * as fmt from '../format.js';
import { CUSTOM_MODEL, SHAPE_FIELDS, getField, hardwareName, parseValue } from '../scenario.js';

/** The prompt slider is log2-scaled: position = 100·log2(T), 1 … 131,072 tokens. */
const SLIDER_MAX_TOKENS = 131072;
const SLIDER_SCALE = 100;

export function sliderPosition(tokens) {
  const t = Math.min(SLIDER_MAX_TOKENS, Math.max(1, Number(tokens) || 1));
  return Math.round(Math.log2(t) * SLIDER_SCALE);
}

export function sliderTokens(position) {
  return Math.round(2 ** (Number(position) / SLIDER_SCALE));
}

function options(list, selected) {
  return list.map(([value, text]) => h('option', { value, selected: value === selected }, text));
}

/** Names for people of the engine's stack and attention-kernel ids; an id not here shows as itself. */
const STACK_NAMES = {
  'tensorrt-llm': 'TensorRT-LLM',
  vllm: 'vLLM',
  sglang: 'SGLang',
  'llama.cpp': 'llama.cpp',
  transformers: 'Transformers',
  kernels: 'Kernels only (device time)',
};
const KERNEL_NAMES = {
  auto: 'Automatic (the accelerator’s fitted attention)',
  'flash-attention-2': 'FlashAttention-2',
  'flash-attention-3': 'FlashAttention-3',
  flashinfer: 'FlashInfer',
  sdpa: 'PyTorch SDPA',
};

/**
 * The estimate's menus from the engine's presets: every stack the accelerators' estimate
 * profiles price a host gap for (`stack_gap_seconds`) plus `kernels` (device time, no gap), and
 * `auto` (the profile's own attention efficiency) plus every kernel the profiles price
 * (`attention_kernel_efficiency`); docs/trace-json.md names both defaults.
 * @returns {{stacks: Array<[string, string]>, kernels: Array<[string, string]>}}
 */
export function estimateChoices(presets) {
  const stacks = new Set();
  const kernels = new Set();
  for (const accelerator of presets.accelerators ?? []) {
    for (const id of Object.keys(accelerator.estimate?.stack_gap_seconds ?? {})) stacks.add(id);
    for (const id of Object.keys(accelerator.estimate?.attention_kernel_efficiency ?? {})) kernels.add(id);
  }
  const named = (ids, names) => [...ids].map((id) => [id, names[id] ?? id]);
  // The documented order: the default first (TensorRT-LLM; automatic), then as the engine lists them.
  const first = (list, id) => [...list.filter(([v]) => v === id), ...list.filter(([v]) => v !== id)];
  return {
    stacks: [...first(named(stacks, STACK_NAMES), 'tensorrt-llm'), ['kernels', STACK_NAMES.kernels]],
    kernels: [['auto', KERNEL_NAMES.auto], ...named(kernels, KERNEL_NAMES)],
  };
}

/** The hardware menu's entry for a host's own accelerator object (never a preset id: ids have no spaces). */
const HOST_HARDWARE = 'host hardware';

export class Controls {
  // A host's own accelerator (an object in its scenario): its menu entry, and the object.
  #hostHardware = null;
  #fields = new Map();
  #rest;
  #inputs = new Map();

  /**
   * @param {object} presets  listPresets() value: {models, accelerators, precisions}
   * @param {{onEdit: (key: string, value: unknown, commit: boolean) => void,
   *          onAction: (name: string) => void}} handlers
   */
  constructor(presets, { onEdit, onAction }) {
    this.onEdit = onEdit;
    this.presets = presets;

    const model = h(
      'select',
      { id: 'ctl-model' },
      options(
        [
          ...presets.models.map((m) => [m.id, `${m.name} (${fmt.parameters(m.parameters)} parameters)`]),
          [CUSTOM_MODEL, 'Custom shape…'],
        ],
        null,
      ),
    );
    model.addEventListener('change', () => onEdit('model', model.value, true));

    const hardware = h(
      'select',
      { id: 'ctl-hardware' },
      options(presets.accelerators.map((a) => [a.id, a.name]), null),
    );
    hardware.addEventListener('change', () =>
      onEdit('hardware', hardware.value === HOST_HARDWARE ? this.#hostHardware?.value : hardware.value, true),
    );

    const precision = h(
      'select',
      { id: 'ctl-precision' },
      options(presets.precisions.map((p) => [p, p]), null),
    );
    precision.addEventListener('change', () => onEdit('precision', precision.value, true));

    const attention = h(
      'select',
      { id: 'ctl-attention' },
      options(
        [
          ['fused', 'Fused (scores stay on chip)'],
          ['materialized', 'Materialized score matrix'],
        ],
        null,
      ),
    );
    attention.addEventListener('change', () => onEdit('attention', attention.value, true));

    // The engine's two timings (docs/model.md): a lower bound, or the calibrated estimate.
    const timing = h(
      'select',
      { id: 'ctl-timing' },
      options(
        [
          ['bound', 'Bound (a lower bound)'],
          ['estimate', 'Estimate (calibrated)'],
        ],
        null,
      ),
    );
    timing.addEventListener('change', () => onEdit('timing', timing.value, true));

    // The software stack whose host gaps the estimate charges, and the attention kernel whose
    // fitted efficiency it uses (docs/model.md, "Shape and software stack"): the values are the
    // ones the engine's presets carry (estimateChoices), not a list of our own.
    const choices = estimateChoices(presets);
    const stack = h('select', { id: 'ctl-stack' }, options(choices.stacks, null));
    stack.addEventListener('change', () => onEdit('stack', stack.value, true));
    const kernel = h('select', { id: 'ctl-kernel' }, options(choices.kernels, null));
    kernel.addEventListener('change', () => onEdit('kernel', kernel.value, true));

    // Prompt tokens: a log-scaled slider and an exact number field, kept in step.
    const slider = h('input', {
      id: 'ctl-prompt-range',
      type: 'range',
      min: 0,
      max: sliderPosition(SLIDER_MAX_TOKENS),
      step: 5,
    });
    const promptNumber = this.#numberInput('ctl-prompt', { step: 1, min: 1 });
    slider.addEventListener('input', () => {
      const tokens = sliderTokens(slider.value);
      promptNumber.value = String(tokens);
      slider.setAttribute('aria-valuetext', `${fmt.count(tokens)} tokens`);
      onEdit('prompt', tokens, false);
    });
    slider.addEventListener('change', () => onEdit('prompt', sliderTokens(slider.value), true));
    promptNumber.addEventListener('input', () => {
      const value = parseValue(promptNumber.value, true);
      this.#syncSlider(value);
      onEdit('prompt', value, false);
    });
    promptNumber.addEventListener('change', () => onEdit('prompt', parseValue(promptNumber.value, true), true));
    this.slider = slider;

    const batch = this.#numberInput('ctl-batch', { step: 1, min: 1 });
    const chunk = this.#numberInput('ctl-chunk', { step: 256, min: 0 });
    const devices = this.#numberInput('ctl-devices', { step: 1, min: 1 });
    const rate = this.#numberInput('ctl-rate', { decimal: true });
    for (const [key, input] of [['batch', batch], ['chunk', chunk], ['rate', rate], ['devices', devices]]) {
      input.addEventListener('input', () => onEdit(key, parseValue(input.value, true), false));
      input.addEventListener('change', () => onEdit(key, parseValue(input.value, true), true));
    }

    // A custom model's shape, shown when "Custom shape…" is chosen.
    const shapeFields = SHAPE_FIELDS.map((field) => {
      const key = `shape.${field.key}`;
      let input;
      if (field.options) {
        input = h('select', { id: `ctl-shape-${field.key}` }, options(field.options.map((o) => [o, o]), null));
        input.addEventListener('change', () => onEdit(key, input.value, true));
      } else {
        input = this.#numberInput(`ctl-shape-${field.key}`, { step: 1, min: field.key === 'head_dim' ? 0 : 1 });
        input.addEventListener('input', () => onEdit(key, parseValue(input.value, true), false));
        input.addEventListener('change', () => onEdit(key, parseValue(input.value, true), true));
      }
      this.#inputs.set(key, input);
      const label = field.symbol ? [field.label, ' ', h('span', { class: 'symbol' }, `(${field.symbol})`)] : field.label;
      return this.#field(key, label, input);
    });
    this.shapeSet = h(
      'fieldset',
      { class: 'shape-fields', hidden: true },
      h('legend', {}, 'Custom model shape'),
      h('div', { class: 'shape-grid' }, shapeFields),
    );

    for (const [key, input] of [
      ['model', model],
      ['hardware', hardware],
      ['precision', precision],
      ['prompt', promptNumber],
      ['batch', batch],
      ['chunk', chunk],
      ['attention', attention],
      ['rate', rate],
      ['timing', timing],
      ['stack', stack],
      ['kernel', kernel],
      ['devices', devices],
    ]) {
      this.#inputs.set(key, input);
    }

    const promptField = h(
      'div',
      { class: 'field field--prompt', 'data-field': 'prompt' },
      h(
        'div',
        { class: 'prompt-row' },
        h('label', { for: 'ctl-prompt-range' }, 'Prompt tokens'),
        h(
          'span',
          { class: 'prompt-exact' },
          h('label', { for: 'ctl-prompt' }, h('span', { class: 'visually-hidden' }, 'Prompt tokens '), '(exact)'),
          promptNumber,
        ),
      ),
      slider,
      h('p', { class: 'hint', id: 'ctl-prompt-hint' }, 'Log slider 1–131,072; exact up to 16,777,216.'),
      h('p', { class: 'field-error', id: 'ctl-prompt-error', hidden: true }),
    );
    promptNumber.setAttribute('aria-describedby', 'ctl-prompt-hint ctl-prompt-error');
    slider.setAttribute('aria-describedby', 'ctl-prompt-hint ctl-prompt-error');
    this.#fields.set('prompt', promptField);

    this.status = h('p', { class: 'action-status', role: 'status', 'aria-live': 'polite' });
    this.linkOutput = h('input', {
      type: 'text',
      class: 'link-output',
      readonly: true,
      hidden: true,
      'aria-label': 'Link to this scenario',
    });
    // `hiddenPrefix` completes the visible text for screen readers ("Download trace as JSON"),
    // so the accessible name contains what is seen (WCAG 2.5.3, label in name), which an
    // aria-label replacing it did not.
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

    // The fields after the prompt are held back until placeRest(): the explorer lays the
    // controls out in two frames (explorer.js start()), not in one long rendering.
    this.element = h(
      'form',
      { class: 'controls', 'aria-labelledby': 'controls-heading', novalidate: true },
      h('h3', { id: 'controls-heading' }, 'Scenario'),
      this.#field('model', 'Model', model),
      this.shapeSet,
      this.#field('hardware', 'Accelerator', hardware),
      this.#field('precision', 'Precision', precision, 'Number formats of weights, activations and KV cache.'),
      promptField,
    );
    this.#rest = [
      this.#field('batch', 'Requests per batch', batch, 'Requests prefilled together (B).'),
      this.#field('chunk', 'Chunk size', chunk, 'Tokens per chunk; 0 = whole prompt at once.'),
      this.#field('attention', 'Attention', attention),
      this.#field('rate', 'Arrival rate', rate, 'Requests per second; 0 = no queue.'),
      this.#field('timing', 'Timing', timing, 'Bound: never above a real measurement. Estimate: fitted per accelerator, with its typical range.'),
      this.#field('stack', 'Software stack', stack, 'Estimate only: whose launch gaps between kernels are charged.'),
      this.#field('kernel', 'Attention kernel', kernel, 'Estimate only: whose fitted attention efficiency is used.'),
      this.#field('devices', 'Devices (tensor parallel)', devices, 'GPUs each layer is split over; figures are per device.'),
      h(
        'div',
        { class: 'actions' },
        button('copy-link', 'Copy link'),
        button('reset', 'Reset'),
      ),
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
    this.element.addEventListener('submit', (event) => event.preventDefault());
  }

  /** Appends the fields held back at construction (the batch size onwards, and the actions). */
  placeRest() {
    this.element.append(...this.#rest.splice(0));
  }

  /**
   * A number field. It is a text field (inputmode brings up a numeric keyboard), not
   * type=number: a number field silently empties what it cannot parse, so "abc" or "1e" would
   * reach the engine as a missing value; here the engine sees the text and names the field.
   * ArrowUp/ArrowDown step an integer field as a number field would.
   */
  /** A host's accelerator object in the hardware menu, by its name (scenario.js hardwareName), chosen. */
  #showHostHardware(select, value) {
    const name = hardwareName(value, this.presets.accelerators);
    if (!this.#hostHardware) {
      this.#hostHardware = { option: h('option', { value: HOST_HARDWARE }, name), value };
      select.prepend(this.#hostHardware.option);
    }
    this.#hostHardware.value = value;
    setText(this.#hostHardware.option, name);
    select.value = HOST_HARDWARE;
  }

  #numberInput(id, { step = null, min = null, decimal = false } = {}) {
    const input = h('input', {
      id,
      type: 'text',
      class: 'number-field',
      inputmode: decimal ? 'decimal' : 'numeric',
      autocomplete: 'off',
      spellcheck: 'false',
    });
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

  #syncSlider(tokens) {
    if (typeof tokens !== 'number' || !Number.isFinite(tokens)) return;
    this.slider.value = String(sliderPosition(tokens));
    this.slider.setAttribute('aria-valuetext', `${fmt.count(tokens)} tokens`);
  }

  /** Shows `state` in the controls (initial load, back/forward, reset). */
  setState(state) {
    for (const [key, input] of this.#inputs) {
      const value = getField(state, key);
      if (key === 'hardware' && value && typeof value === 'object') {
        this.#showHostHardware(input, value);
        continue;
      }
      input.value = value === null || value === undefined ? '' : String(value);
    }
    this.#syncSlider(state.prompt);
    this.shapeSet.hidden = state.model !== CUSTOM_MODEL;
  }

  /** Shows the custom-shape fields only for a custom model. */
  showShape(visible) {
    if (this.shapeSet.hidden !== !visible) this.shapeSet.hidden = !visible;
  }

  /**
   * Shows messages beside controls: `errors` (the engine rejects the value) and `notes`
   * (a permalink value that was replaced by the default). Other fields are cleared.
   */
  setMessages(errors, notes = {}) {
    for (const [key, field] of this.#fields) {
      const box = field.querySelector('.field-error');
      const input = this.#inputs.get(key);
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

  /** Replaces the hint under field `key` (the arrival rate's names the scenario's saturation rate). */
  setHint(key, text) {
    const hint = this.#fields.get(key)?.querySelector('.hint');
    if (hint) setText(hint, text);
  }

  /** The hint under "Precision": what the chosen format means for each tensor (from the trace). */
  setPrecisionHint(precision) {
    const hint = this.#fields.get('precision').querySelector('.hint');
    setText(
      hint,
      precision
        ? `Weights ${precision.weights} · activations ${precision.activations} · KV ${precision.kv}`
        : 'Number formats of weights, activations and KV cache.',
    );
  }

  /** Says what a button did (and shows the link when the clipboard is unavailable). */
  say(message, link = null) {
    this.status.replaceChildren(message);
    this.linkOutput.hidden = link === null;
    if (link !== null) {
      this.linkOutput.value = link;
      this.linkOutput.select();
    }
  }
}
