// The phone's scenario bar: on a narrow screen the controls sit above the results, and once
// the reader scrolls into the results they are out of sight. This bar stays at the top of the
// results (sticky, style.css) with the scenario's key values; a tap opens the full controls
// over the results, a second tap (or Escape) closes them. Wider layouts hide it: there the
// controls stay beside the results.

import { h, setText } from '../dom.js';
import * as fmt from '../format.js';
import { CUSTOM_MODEL, hardwareName } from '../scenario.js';

export class ScenarioBar {
  #open = false;
  #summary;
  #machine;
  #workload;
  #action;
  #explorer;

  /**
   * @param {object} presets       listPresets() value (for the models' and accelerators' names)
   * @param {HTMLElement} controls  the controls' container, which the bar opens
   */
  constructor(presets, controls) {
    this.presets = presets;
    this.controls = controls;
    controls.id ||= 'explorer-controls';
    this.#machine = h('span', {});
    this.#workload = h('span', {});
    this.#summary = h('span', { class: 'scenario-bar-values' }, this.#machine, this.#workload);
    this.#action = h('span', { class: 'scenario-bar-action', 'aria-hidden': 'true' }, 'Edit');
    this.element = h(
      'button',
      { type: 'button', class: 'scenario-bar', 'aria-expanded': 'false', 'aria-controls': controls.id },
      h('span', { class: 'visually-hidden' }, 'Scenario: '),
      this.#summary,
      this.#action,
    );
    this.element.addEventListener('click', () => this.toggle(!this.#open));
    controls.addEventListener('keydown', (event) => {
      if (event.key === 'Escape' && this.#open) {
        this.toggle(false);
        this.element.focus();
      }
    });
  }

  /** The explorer section, whose `data-controls-open` lays the controls over the results. */
  attach(explorerElement) {
    this.#explorer = explorerElement;
  }

  toggle(open) {
    this.#open = open;
    this.element.setAttribute('aria-expanded', String(open));
    setText(this.#action, open ? 'Done' : 'Edit');
    this.#explorer?.toggleAttribute('data-controls-open', open);
  }

  /**
   * Shows the key values of a scenario the engine computed: model, accelerator (with the device
   * count under tensor parallelism, as the glance writes it), precision, prompt, batch, and the
   * timing when it is not the default lower bound — the values that change what every figure means.
   */
  update(state) {
    const model =
      state.model === CUSTOM_MODEL ? 'Custom model' : this.presets.models.find((m) => m.id === state.model)?.name ?? state.model;
    const hardware = hardwareName(state.hardware, this.presets.accelerators);
    const devices = Number(state.devices) > 1 ? `${fmt.count(Number(state.devices))} × ` : '';
    const prompt = `${fmt.count(Number(state.prompt))} tokens`;
    const timing = state.timing === 'estimate' ? ' · estimate' : '';
    setText(this.#machine, `${model} · ${devices}${hardware}`);
    setText(this.#workload, `${state.precision} · ${prompt} · batch ${state.batch}${timing}`);
  }
}
