// @ts-check
// The scenario bar of a narrow column (a phone, the Atlas's inspector): there the controls are
// folded away and this bar takes their place, sticky at the top of the box the explorer scrolls
// in, with the scenario's key values. A tap opens the controls as a sheet under the bar, inside
// the explorer's own box (never over the host's page) and no taller than about half of the
// scrolling box, so the results stay in view below it while the reader edits; the bar, now
// "Done", stays on screen above the sheet, and the sheet's first line keeps the glance's key
// figures in view. Done, Escape, a tap outside the sheet or focus leaving it close the sheet;
// closing by Done or Escape puts the focus back on the bar. Wider layouts hide the bar: there
// the controls sit beside or above the results (style.css).

import { h, setText } from '../dom.js';
import * as fmt from '../format.js';
import { CUSTOM_MODEL, hardwareName } from '../scenario.js';
import { keyFiguresText } from './glance.js';

export class ScenarioBar {
  #open = false;
  #summary;
  #machine;
  #workload;
  #action;
  /** @type {HTMLElement | null} */
  #explorer = null;
  #dock;
  #figures;

  /**
   * @param {import('prefill-trace').PresetList} presets     listPresets() value (for the models' and accelerators' names)
   * @param {HTMLElement} dock   the controls' box, which holds the bar and the controls
   * @param {HTMLElement} panel  the controls (the sheet the bar opens)
   */
  constructor(presets, dock, panel) {
    this.presets = presets;
    this.#dock = dock;
    panel.id ||= 'explorer-controls-form';
    this.#machine = h('span', {});
    this.#workload = h('span', {});
    this.#summary = h('span', { class: 'scenario-bar-values' }, this.#machine, this.#workload);
    this.#action = h('span', { class: 'scenario-bar-action', 'aria-hidden': 'true' }, 'Edit');
    this.element = h(
      'button',
      { type: 'button', class: 'scenario-bar', 'aria-expanded': 'false', 'aria-controls': panel.id },
      h('span', { class: 'visually-hidden' }, 'Scenario: '),
      this.#summary,
      this.#action,
    );
    this.element.addEventListener('click', () => this.toggle(!this.#open));
    // The key figures atop the sheet, so the glance stays in view while the controls cover it
    // (hidden from screen readers: the glance's summary already announces each change).
    this.#figures = h('p', { class: 'sheet-figures', 'aria-hidden': 'true' });
    panel.prepend(this.#figures);
    dock.addEventListener('keydown', (event) => {
      if (event.key === 'Escape' && this.#open) {
        event.stopPropagation();
        this.toggle(false, { refocus: true });
      }
    });
    // Tabbing out of the sheet (into results it may cover) closes it.
    dock.addEventListener('focusout', (event) => {
      if (this.#open && event.relatedTarget && !dock.contains(/** @type {Node} */ (event.relatedTarget))) this.toggle(false);
    });
  }

  /**
   * The explorer section, whose `data-controls-open` shows the sheet (style.css).
   * @param {HTMLElement} explorerElement
   */
  attach(explorerElement) {
    this.#explorer = explorerElement;
  }

  get isOpen() {
    return this.#open;
  }

  /**
   * Opens or closes the sheet. `refocus`: put the focus back on the bar (Escape; a tap outside
   * while the focus was in the sheet), so it is not lost with the sheet.
   * @param {boolean} open
   * @param {{refocus?: boolean}} [options]
   */
  toggle(open, { refocus = false } = {}) {
    if (open === this.#open) return;
    this.#open = open;
    this.element.setAttribute('aria-expanded', String(open));
    setText(this.#action, open ? 'Done' : 'Edit');
    this.#explorer?.toggleAttribute('data-controls-open', open);
    const doc = this.element.ownerDocument;
    if (open) doc.addEventListener('pointerdown', this.#onPointerDown, true);
    else doc.removeEventListener('pointerdown', this.#onPointerDown, true);
    if (refocus) this.element.focus({ preventScroll: true });
  }

  /** A tap anywhere outside the bar and its sheet (in the element or on the host's page) closes it. */
  #onPointerDown = (/** @type {PointerEvent} */ event) => {
    if (event.composedPath().includes(this.#dock)) return;
    const root = /** @type {Document | ShadowRoot} */ (this.element.getRootNode());
    this.toggle(false, { refocus: this.#dock.contains(root.activeElement) });
  };

  /** Closes the sheet and lets go of the document (the explorer is being disposed of). */
  dispose() {
    this.toggle(false);
  }

  /**
   * Shows the key values of a scenario the engine computed: model, accelerator (with the device
   * count under tensor parallelism, as the glance writes it), precision, prompt, batch, and the
   * timing when it is not the default lower bound — the values that change what every figure means;
   * and the trace's key figures atop the sheet.
   * @param {import('../scenario.js').ScenarioState} state
   * @param {import('prefill-trace').TraceDocument | null} [trace]
   */
  update(state, trace = null) {
    if (trace) setText(this.#figures, keyFiguresText(trace));
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
