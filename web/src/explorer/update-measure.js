// `control-to-update` (explorer.js): from the first reader's change not yet shown to the moment
// everything on screen shows it. A benchmark reads these measures.

const MAX_MEASURES = 500;

export class UpdateMeasure {
  /** @type {number|null} */
  #pendingStart = null;

  /** Records a reader's change: `control-to-update` runs from the first one not yet shown. */
  mark() {
    const mark = performance.mark('control-change');
    this.#pendingStart ??= mark?.startTime ?? performance.now();
  }

  /** `control-to-update`, from the first unmeasured control change to now. */
  measure() {
    if (this.#pendingStart === null) return;
    performance.measure('control-to-update', { start: this.#pendingStart });
    this.#pendingStart = null;
    performance.clearMarks('control-change');
    if (performance.getEntriesByName('control-to-update').length > MAX_MEASURES) {
      performance.clearMeasures('control-to-update');
    }
  }
}
