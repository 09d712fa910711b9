// @ts-check
// The explorer's action buttons (controls.js): copy the permalink, download the trace as JSON
// or CSV, reset the scenario. Each says what it did in the controls' status line.

import { download, traceFileName } from './downloads.js';

export class ExplorerActions {
  #engine;
  #controls;
  #permalink;
  #last;
  #reset;

  /**
   * @param {object} options
   * @param {import('../engine.js').Engine} options.engine
   * @param {{say: (message: string, link?: string) => void}} options.controls
   * @param {() => URL} options.permalink   the link to the scenario shown
   * @param {() => {json: string|null, result: import('./trace-cache.js').TraceResult|null}} options.last   the scenario shown and its result (trace-cache.js)
   * @param {() => void} options.reset      back to the default scenario
   */
  constructor({ engine, controls, permalink, last, reset }) {
    this.#engine = engine;
    this.#controls = controls;
    this.#permalink = permalink;
    this.#last = last;
    this.#reset = reset;
  }

  /**
   * Runs the action `name` (a button's data-action).
   * @param {string} name
   */
  async run(name) {
    if (name === 'copy-link') await this.#copyLink();
    else if (name === 'download-json' || name === 'download-csv') this.#download(name === 'download-json' ? 'json' : 'csv');
    else if (name === 'reset') this.#reset();
  }

  async #copyLink() {
    const link = this.#permalink().href;
    try {
      await navigator.clipboard.writeText(link);
      this.#controls.say('Link copied to the clipboard.');
    } catch {
      this.#controls.say('Copying is not allowed here; select and copy the link below.', link);
    }
  }

  /**
   * The trace shown, as `kind` ('json' or 'csv'), written by the engine.
   * @param {'json' | 'csv'} kind
   */
  #download(kind) {
    const { json, result } = this.#last();
    const trace = result?.ok ? result.value : null;
    // A shown trace always has its scenario's JSON (trace-cache.js remembers both).
    if (!trace || !result?.ok || json === null) {
      this.#controls.say('There is no trace to download: the engine rejected this scenario.');
      return;
    }
    const name = traceFileName(trace, kind);
    if (kind === 'json') {
      // A trace refilled from figures has no JSON text: the engine writes it now.
      const computed = result.json === undefined ? this.#engine.computeTrace(json) : null;
      download(result.json ?? (computed?.ok ? computed.json : ''), name, 'application/json');
    } else {
      const csv = this.#engine.traceCsv(json);
      if (!csv.ok) {
        this.#controls.say(`The engine could not write the CSV: ${csv.error}`);
        return;
      }
      download(csv.csv, name, 'text/csv');
    }
    this.#controls.say(`Downloaded ${name}.`);
  }
}
