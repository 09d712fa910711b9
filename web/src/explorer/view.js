// @ts-check
// The explorer's DOM: the section, its intro, the controls beside the results (the figures,
// the steps, the step picker and the chart grid) and the engine's message above them. It only
// builds and shows; what to show is decided in explorer.js.

import { h } from '../dom.js';
import { glossaryLine } from '../plain-words/glossary.js';

/** The steps a reader can highlight in the charts ("none" first). */
const HIGHLIGHT_CHOICES = ['none', '1', '2', '3', '4', '5'];

export class ExplorerView {
  /** @type {boolean | null} */
  #stale = null;
  /** @type {HTMLElement[]} */
  #held;

  /**
   * @param {object} parts
   * @param {HTMLElement} parts.controls   the controls' element
   * @param {HTMLElement} parts.glance     the figures' element
   * @param {HTMLElement} parts.steps      the five steps' element
   * @param {(step: number|null) => void} parts.onHighlight  a step chosen in the step picker
   */
  constructor({ controls, glance, steps, onHighlight }) {
    this.stepPicker = h(
      'fieldset',
      { class: 'segmented step-picker' },
      h('legend', {}, 'Highlight the operators of'),
      HIGHLIGHT_CHOICES.map((value) =>
        h(
          'label',
          {},
          h('input', { type: 'radio', name: 'highlight-step', value, checked: value === 'none' }),
          ' ',
          value === 'none' ? 'no step' : `step ${value}`,
        ),
      ),
    );
    this.stepPicker.addEventListener('change', (event) => {
      const value = /** @type {HTMLInputElement} */ (event.target).value;
      onHighlight(value === 'none' ? null : Number(value));
    });

    // Filled with the charts once their module has loaded (showCharts).
    this.chartGrid = h('div', { class: 'charts' });

    this.resultsError = h('div', { class: 'results-error', hidden: true });
    this.chartsBlock = h(
      'section',
      { class: 'explorer-block charts-block', 'aria-labelledby': 'charts-heading' },
      h('h3', { id: 'charts-heading' }, 'Pictures of the trace'),
      // In a form of its own: radio buttons outside a form are grouped by name in the whole
      // shadow root, and Chromium kept every removed rendering's buttons in that group (with
      // its whole explorer, ~2 900 nodes) until the element itself was removed (issue 24, W5).
      h('form', { class: 'step-picker-form', 'aria-label': 'Highlight a step' }, this.stepPicker),
      this.chartGrid,
    );
    // The explorer is placed with its controls; the figures, the steps and the charts' block
    // follow, each appended in a frame of its own (placeNext), so that no single rendering
    // styles and lays out all of it (docs/performance.md, "Long tasks").
    this.#held = [glance, steps, this.chartsBlock];
    this.results = h('div', { class: 'results' });
    this.element = h(
      'section',
      { id: 'explorer', class: 'explorer', 'aria-labelledby': 'explorer-heading', 'data-state': 'loading' },
      h('h2', { id: 'explorer-heading' }, 'Explore the resource trace'),
      h(
        'p',
        { class: 'explorer-intro' },
        'Change the model, the accelerator and the prompt, and watch the five steps of prefill change. ',
        'Every figure is computed by the prefill-trace engine (WebAssembly) in your browser.',
      ),
      glossaryLine(),
      h(
        'div',
        { class: 'explorer-layout' },
        (this.controlsBox = h('div', { class: 'explorer-controls', id: 'explorer-controls' }, controls)),
        (this.resultsBox = h('div', { class: 'explorer-results' }, this.resultsError, this.results)),
      ),
    );
  }

  /**
   * Holds `node` back to be placed just after the figures (pin and compare).
   * @param {HTMLElement} node
   */
  holdAfterGlance(node) {
    this.#held.splice(1, 0, node);
  }

  /**
   * Puts the guided investigations (a <details>) between the intro and the controls.
   * @param {HTMLElement} node
   */
  showInvestigations(node) {
    this.element.querySelector('.explorer-layout')?.before(node);
  }

  /** Appends the next part held back at construction; false when none is left. */
  placeNext() {
    const part = this.#held.shift();
    if (part) this.results.append(part);
    return this.#held.length > 0;
  }

  /** Whether every part is in the results. */
  get complete() {
    return this.#held.length === 0;
  }

  /**
   * Puts the narrow column's scenario bar (scenario-bar.js) atop the controls, which it opens.
   * @param {HTMLElement} bar
   */
  showScenarioBar(bar) {
    this.controlsBox.prepend(bar);
  }

  /**
   * Puts the charts in the grid, in the order they are read.
   * @param {Record<'roofline' | 'intensity' | 'time' | 'bytes' | 'memory' | 'ttft' | 'sweep' | 'decode' | 'reuse', {element: HTMLElement}>} charts
   */
  showCharts({ roofline, intensity, time, bytes, memory, ttft, sweep, decode, reuse }) {
    this.chartGrid.replaceChildren(
      roofline.element,
      intensity.element,
      time.element,
      bytes.element,
      memory.element,
      h('div', { class: 'chart-pair' }, ttft.element, sweep.element),
      decode.element,
      reuse.element,
    );
  }

  /**
   * In place of the charts: why they could not be loaded (the rest works without them).
   * @param {unknown} error
   */
  showChartsError(error) {
    this.chartGrid.replaceChildren(
      h(
        'p',
        { class: 'inline-error', role: 'alert' },
        `The charts could not be loaded: ${error instanceof Error ? error.message : error}. `,
        'The figures and steps above are complete without them.',
      ),
    );
  }

  /**
   * Checks the step picker's radio button of `step` (or "no step").
   * @param {number | null} step
   */
  selectStep(step) {
    for (const input of this.stepPicker.querySelectorAll('input')) {
      input.checked = input.value === (step ? String(step) : 'none');
    }
  }

  /**
   * The engine rejected the scenario: the last good figures stay in place (no jump in the
   * page) but greyed out and inert, under the engine's message: they are not this scenario's.
   * @param {string} error          the engine's message
   * @param {boolean} namesControl  whether the message is also shown beside a control
   */
  showEngineError(error, namesControl) {
    this.#setStale(true);
    this.resultsError.hidden = false;
    this.resultsError.replaceChildren(
      h(
        'div',
        { class: 'inline-error', role: 'alert' },
        h('p', { class: 'inline-error-title' }, 'The engine cannot compute this scenario.'),
        h('p', {}, error),
        h('p', {}, 'The figures below are from the last scenario it could compute.'),
        namesControl ? null : h('p', {}, 'Change the scenario, or press Reset to return to the default.'),
      ),
    );
    this.element.dataset.state = 'error';
  }

  /** The results show the current scenario again. */
  showReady() {
    if (!this.resultsError.hidden) {
      this.resultsError.hidden = true;
      this.resultsError.replaceChildren();
    }
    this.#setStale(false);
    this.element.dataset.state = 'ready';
  }

  /**
   * Names the scenario every part shows (tests and `fullyShown` callers read it).
   * @param {string} json
   */
  markShown(json) {
    this.element.dataset.scenario = json;
  }

  /** @param {boolean} stale */
  #setStale(stale) {
    if (this.#stale === stale) return;
    this.#stale = stale;
    this.results.classList.toggle('results--stale', stale);
    this.results.inert = stale;
    if (stale) this.results.setAttribute('aria-hidden', 'true');
    else this.results.removeAttribute('aria-hidden');
  }
}
