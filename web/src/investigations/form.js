// One guided investigation's form (investigations.js): the reader commits to a prediction,
// "Show me" sets the investigation's scenario(s) in the explorer and reads the engine's
// traces in one sentence, "Change one condition" changes them alike and reads again.

import { h, setText } from '../dom.js';
import { termsLine } from '../plain-words/glossary.js';

/** @typedef {import('./catalog.js').Investigation<unknown, unknown>} AnyInvestigation */
/** @typedef {import('./catalog.js').SentencePart} SentencePart */
/** @typedef {import('../charts/inline.js').Figure} Figure */
/** @typedef {import('../scenario.js').ScenarioState} ScenarioState */
/** @typedef {import('prefill-trace').TraceDocument} TraceDocument */
/** @typedef {import('prefill-trace').PlanDocument} PlanDocument */
/** @typedef {import('./catalog.js').Served} Served */
/** The scenarios a reading shows (A: null without one). @typedef {{a: ScenarioState | null, b: ScenarioState}} States */
/** What a reading reads: traces, or a serving reading as B (serving-catalog.js). @typedef {{a: TraceDocument | null, b: unknown}} Traces */

/**
 * The figures of a sentence by name (name → {name, value, text}), as its <data> elements hold them.
 * @param {SentencePart[]} parts
 * @returns {Record<string, Figure>}
 */
function figuresOf(parts) {
  return Object.fromEntries(
      /** @type {(string | Figure)[]} */ (/** @type {unknown[]} */ (parts).flat(Infinity))
      .filter((part) => typeof part !== 'string')
      .map((part) => [part.name, part]),
  );
}

/**
 * `figures` with every name prefixed by `prefix` (the first reading's, beside the second's).
 * @param {Record<string, Figure>} figures
 * @param {string} prefix
 */
function prefixed(figures, prefix) {
  return Object.fromEntries(Object.values(figures).map((f) => [`${prefix}${f.name}`, { ...f, name: `${prefix}${f.name}` }]));
}

/**
 * The sentence parts as nodes: a figure becomes <data value="…" data-name="…">text</data>.
 * @param {SentencePart[]} parts
 */
function sentenceNodes(parts) {
  return /** @type {(string | Figure)[]} */ (/** @type {unknown[]} */ (parts).flat(Infinity)).map((part) =>
    typeof part === 'string' ? part : h('data', { value: String(part.value), 'data-name': part.name }, part.text),
  );
}

/** The form's nodes before #build (which the constructor calls first) makes them. */
const UNBUILT = /** @type {HTMLElement} */ (/** @type {unknown} */ (null));

export class InvestigationForm {
  #spec;
  #traceOf;
  #explorer;
  #compare;
  #onPredicted;
  /** @type {HTMLElement[]} */
  #options = [];
  #show = UNBUILT;
  #verdict = UNBUILT;
  #reading = UNBUILT;
  #next = UNBUILT;
  #nextReading = UNBUILT;
  #sweepOf;
  #serveOf;
  #planOf;
  /** A serving investigation is simulating: "Show me" and "Change one condition" wait for it. */
  #busy = false;
  /** How the first reading's figures were found (the entry's `details`), folded. */
  #details = UNBUILT;
  /** Under each reading: its key figure and "Open in the explorer" (#showEvidence). */
  #evidence = UNBUILT;
  #nextEvidence = UNBUILT;
  /** The first reading's figures and picture, which the second's picture keeps beside its own. */
  /** @type {{figures: Record<string, Figure>, held: import('./catalog.js').Held | null} | null} */
  #first = null;
  /** The option the reader committed to, once they have (it cannot change after). */
  /** @type {number | null} */
  #predicted = null;
  /** The scenarios "Show me" set, which "Change one condition" changes. */
  /** @type {States | null} */
  #scenarios = null;

  /**
   * @param {object} options
   * @param {AnyInvestigation} options.spec   the investigation (catalog.js)
   * @param {import('./catalog.js').TraceOf} options.traceOf   the engine's trace of a scenario, or null
   * @param {import('../explorer/explorer.js').Explorer} options.explorer
   * @param {import('../compare/compare.js').Compare} options.compare
   * @param {(answer: number, correct: boolean) => void} options.onPredicted  after each reading of the prediction
   * @param {(state: ScenarioState, variable: import('../charts/sweep.js').SweepVariable, values: number[]) => import('../engine.js').JsonOutcome<import('prefill-trace').SweepDocument> | {ok: false}} [options.sweepOf]  the
   *        engine's sweep of a scenario ({ok, value: {points}}), for a picture that draws one
   * @param {(state: ScenarioState, serving: object) => import('prefill-trace').ServingReport | null} [options.serveOf]  the engine's
   *        serving report of a scenario with a `serving` object, or null (serving-catalog.js)
   * @param {(state: ScenarioState, serving: object, devices: number, onStatus?: (text: string) => void) => Promise<PlanDocument | null>} [options.planOf]  the
   *        engine's placement search of a scenario over `devices` devices, or null (serving-catalog.js), off the main
   *        thread; `onStatus` is told when it runs on the page instead
   */
  constructor({ spec, traceOf, explorer, compare, onPredicted, sweepOf = () => ({ ok: false }), serveOf = () => null, planOf = async () => null }) {
    this.#spec = spec;
    this.#traceOf = traceOf;
    this.#sweepOf = sweepOf;
    this.#serveOf = serveOf;
    this.#planOf = planOf;
    this.#explorer = explorer;
    this.#compare = compare;
    this.#onPredicted = onPredicted;
    this.element = this.#build();
    this.element.addEventListener('submit', (event) => {
      event.preventDefault();
      this.#showMe();
    });
    this.#next.addEventListener('click', () => this.#changeOneCondition());
  }

  /**
   * A saved prediction: locked in, and the verdict says so until "Show me" reads again.
   * @param {number} answer
   */
  restore(answer) {
    const spec = this.#spec;
    if (!Number.isInteger(answer) || answer < 0 || answer >= spec.options.length) return;
    this.#lock(answer);
    setText(this.#verdict, `You predicted “${spec.options[answer]}”. Show me to read the engine’s numbers again.`);
  }

  #build() {
    const spec = this.#spec;
    const name = `investigate-${spec.id}`;
    const questionId = `${name}-question`;
    this.#options = spec.options.map((text, i) =>
      h('label', { class: 'option' }, h('input', { type: 'radio', name, value: String(i) }), h('span', { class: 'option-text' }, text)),
    );
    this.#show = h('button', { type: 'submit', class: 'button' }, 'Show me');
    this.#verdict = h('p', { class: 'investigation-verdict' });
    this.#reading = h('p', { class: 'investigation-reading', 'data-reading': 'first' });
    this.#next = h('button', { type: 'button', class: 'button button--quiet', hidden: true }, `Change one condition: ${spec.next.label}`);
    this.#nextReading = h('p', { class: 'investigation-reading', 'data-reading': 'next', hidden: true });
    this.#evidence = h('div', { class: 'investigation-evidence', hidden: true });
    this.#nextEvidence = h('div', { class: 'investigation-evidence', 'data-reading': 'next', hidden: true });
    const result = h('div', { class: 'investigation-result', role: 'status', 'aria-live': 'polite' }, this.#verdict, this.#reading);
    // Outside the live region: opening it is the reader's choice, not an announcement. A button
    // and its paragraph, not a nested <details>: the investigation is one, whose <summary> a host
    // (and the tests) find as the item's only one.
    const how = h('p', { class: 'investigation-how-text', id: `${name}-how`, hidden: true });
    const toggle = h('button', { type: 'button', class: 'link-button investigation-how', 'aria-expanded': 'false', 'aria-controls': `${name}-how` }, 'How these figures were found');
    toggle.addEventListener('click', () => {
      how.hidden = !how.hidden;
      toggle.setAttribute('aria-expanded', String(!how.hidden));
    });
    this.#details = h('div', { class: 'investigation-details', hidden: true }, toggle, how);
    return h(
      'form',
      { class: 'investigation-form', 'aria-labelledby': questionId, novalidate: true },
      h(
        'fieldset',
        {},
        h('legend', {}, h('p', { id: questionId, class: 'investigation-question' }, spec.question)),
        h('div', { class: 'options' }, this.#options),
      ),
      spec.terms?.length ? termsLine(spec.terms, 'investigation-terms') : null,
      h('p', { class: 'hint' }, 'Commit to a prediction, then reveal what the engine computes.'),
      this.#show,
      result,
      this.#details,
      this.#evidence,
      this.#next,
      this.#nextReading,
      this.#nextEvidence,
    );
  }

  /** @param {number} answer */
  #lock(answer) {
    this.#predicted = answer;
    for (const label of this.#options) {
      const input = /** @type {HTMLInputElement} */ (label.querySelector('input'));
      input.checked = Number(input.value) === answer;
      input.disabled = true;
    }
  }

  /** Sets the scenarios in the explorer (A pinned when there are two) and returns the engine's traces, or null. @param {States} states @returns {Traces | null} */
  #run(states) {
    const a = states.a ? this.#traceOf(states.a) : null;
    const b = this.#traceOf(states.b);
    if (!b || (states.a && !a)) return null;
    this.#compare.pin(states.a ? this.#explorer.withPresetShape(states.a) : null);
    this.#explorer.apply(this.#explorer.withPresetShape(states.b));
    return { a, b };
  }

  /**
   * A serving investigation's reading (serving-catalog.js): its simulations, one engine call per
   * idle moment of the page so that the page answers between them, its placement searches off
   * the main thread (plan-runner.js), and the traces its sentence reads; the explorer then shows
   * its scenario. Null when the engine refused one.
   * @param {boolean} changed
   * @returns {Promise<{states: States, traces: Traces} | null>}
   */
  async #serve(changed) {
    // Called for a serving investigation only (#readingOf).
    const setup = /** @type {NonNullable<AnyInvestigation['serving']>} */ (this.#spec.serving)(this.#explorer.defaults, { changed, traceOf: this.#traceOf });
    /** @type {Record<string, import('prefill-trace').ServingReport | null>} */
    const runs = {};
    for (const [name, serving] of Object.entries(setup.runs)) {
      await idleMoment();
      runs[name] = this.#serveOf(setup.state, serving);
      if (!runs[name]) return null;
    }
    /** @type {Record<string, PlanDocument | null>} */
    const plans = {};
    for (const [name, { serving, devices }] of Object.entries(setup.plans ?? {})) {
      plans[name] = await this.#planOf(setup.state, serving, devices, (text) => setText(this.#verdict, text));
      if (!plans[name]) return null;
    }
    /** @type {Record<string, TraceDocument | null>} */
    const traces = {};
    for (const [name, state] of Object.entries(setup.traces ?? {})) {
      traces[name] = this.#traceOf(state);
      if (!traces[name]) return null;
    }
    this.#compare.pin(null);
    this.#explorer.apply(this.#explorer.withPresetShape(setup.state));
    return { states: { a: null, b: setup.state }, traces: { a: null, b: { runs, plans, traces, state: setup.state } } };
  }

  /**
   * The reading of the investigation's scenarios ("Show me") or of the changed ones ("Change one
   * condition"): {states, traces: {a, b}}, or null when the engine could not compute one.
   * @param {boolean} changed
   * @returns {Promise<{states: States, traces: Traces, served?: Served} | null>}
   */
  async #readingOf(changed) {
    if (this.#spec.serving) return this.#serve(changed);
    // A trace investigation has scenarios and next.apply (catalog.js).
    const spec = /** @type {Required<Pick<AnyInvestigation, 'scenarios'>> & {next: Required<AnyInvestigation['next']>}} */ (this.#spec);
    const scenarios = changed ? this.#scenarios : spec.scenarios(this.#explorer.defaults, this.#traceOf);
    if (!scenarios) return null;
    const apply = (/** @type {ScenarioState} */ state) => spec.next.apply(state, this.#traceOf);
    const states = changed ? { a: scenarios.a ? apply(scenarios.a) : null, b: apply(scenarios.b) } : scenarios;
    if (!changed) this.#scenarios = scenarios;
    const traces = this.#run(states);
    return traces ? { states, traces, served: this.#servedOf(states) } : null;
  }

  /**
   * A trace investigation's serving runs (catalog.js `passes`): name → the engine's serving
   * report of `passes(states)[name]`, or null without them (no `passes`, or an engine without
   * the simulation or refusing one: the sentence then leaves out what they would say).
   * @param {States} states
   * @returns {Served}
   */
  #servedOf(states) {
    if (!this.#spec.passes) return null;
    /** @type {Record<string, import('prefill-trace').ServingReport>} */
    const served = {};
    for (const [name, { state, serving }] of Object.entries(this.#spec.passes(states))) {
      const report = this.#serveOf(state, serving);
      if (!report) return null;
      served[name] = report;
    }
    return served;
  }

  /** Runs `work` unless a serving reading is under way (the buttons wait for it), busy meanwhile. @param {() => Promise<void>} work */
  async #exclusive(work) {
    if (this.#busy) return;
    this.#busy = true;
    this.element.setAttribute('aria-busy', 'true');
    try {
      await work();
    } finally {
      this.#busy = false;
      this.element.removeAttribute('aria-busy');
    }
  }

  /** "Show me": the prediction locked in, the scenarios shown, the verdict and the reading. */
  #showMe() {
    const spec = this.#spec;
    const picked = /** @type {HTMLInputElement | null} */ (this.element.querySelector('input:checked'));
    if (this.#predicted === null && !picked) {
      setText(this.#verdict, 'Choose a prediction first: the point is to commit before you see.');
      return;
    }
    if (this.#predicted === null) this.#lock(Number(/** @type {HTMLInputElement} */ (picked).value));
    if (spec.serving) setText(this.#verdict, 'Simulating the requests…');
    return this.#exclusive(async () => {
      const reading = await this.#readingOf(false);
      if (!reading) {
        setText(this.#verdict, 'The engine could not compute this investigation’s scenario.');
        return;
      }
      const { traces } = reading;
      const predicted = /** @type {number} */ (this.#predicted); // locked above
      const right = spec.verdict(traces.a, traces.b);
      const correct = right === predicted;
      this.#verdict.replaceChildren(
        h('span', { class: `verdict verdict--${correct ? 'correct' : 'incorrect'}` }, correct ? 'Your prediction holds.' : 'Not this time.'),
        ` You predicted “${spec.options[predicted]}”; the engine’s numbers bear out “${spec.options[right]}”.`,
      );
      const parts = spec.read(traces.a, traces.b, reading.served);
      this.#reading.replaceChildren(...sentenceNodes(parts));
      const details = spec.details?.(traces.a, traces.b) ?? '';
      setText(/** @type {HTMLElement} */ (this.#details.querySelector('.investigation-how-text')), details);
      this.#details.hidden = !details;
      this.#first = null;
      this.#nextEvidence.hidden = true;
      this.#showEvidence(this.#evidence, { states: reading.states, traces, figures: figuresOf(parts), served: reading.served });
      this.element.dataset.verdict = String(right);
      this.#next.hidden = false;
      this.#nextReading.hidden = true;
      this.#show.textContent = 'Show me again';
      this.#onPredicted(predicted, correct);
    });
  }

  /** "Change one condition": both scenarios changed alike, and read again. */
  #changeOneCondition() {
    if (!this.#scenarios && !this.#spec.serving) return;
    return this.#exclusive(async () => {
      const reading = await this.#readingOf(true);
      this.#nextReading.hidden = false;
      if (!reading) {
        setText(this.#nextReading, 'The engine could not compute the changed scenario.');
        this.#nextEvidence.hidden = true;
        return;
      }
      const { states, traces } = reading;
      const parts = this.#spec.read(traces.a, traces.b, reading.served);
      this.#nextReading.replaceChildren(h('span', { class: 'label' }, `With that change (${this.#spec.next.label}): `), ...sentenceNodes(parts));
      // The first reading's figures beside these (named first-…): a picture may mark both.
      const figures = { ...prefixed(this.#first?.figures ?? {}, 'first-'), ...figuresOf(parts) };
      this.#showEvidence(this.#nextEvidence, { states, traces, figures, held: this.#first?.held ?? null, served: reading.served });
    });
  }

  /**
   * Fills `box` with a reading's evidence: its key figure (charts/inline.js, drawn from the
   * sentence's figures and, where the picture asks, the engine's sweep) and a button that shows
   * the claim's chart in the explorer with the reading's scenarios set. The charts' module is
   * the explorer's (loaded once by whichever asks first); without it, the button alone.
   * @param {HTMLElement} box
   * @param {{states: States, traces: Traces, figures: Record<string, Figure>, held?: import('./catalog.js').Held | null, served?: Served}} reading
   */
  #showEvidence(box, { states, traces, figures, held = null, served = null }) {
    const spec = this.#spec;
    const open = h('button', { type: 'button', class: 'button button--small investigation-open' }, 'Open in the explorer');
    open.addEventListener('click', () => {
      this.#run(states);
      if (spec.explorer.part === 'under-load') revealUnderLoad(this.#explorer);
      else this.#explorer.revealChart(/** @type {keyof import('../explorer/chart-inputs.js').Charts} */ (spec.explorer.chart), { sweep: spec.explorer.sweep ?? null });
    });
    box.replaceChildren(open);
    box.hidden = false;
    /** @type {import('./catalog.js').PictureExtra} */
    const extra = { held, served };
    if (spec.sweep && !held) {
      const { variable, values } = spec.sweep(traces.b);
      const result = this.#sweepOf(states.b, variable, values);
      extra.sweep = result.ok ? result.value : null;
    }
    const picture = spec.picture?.(traces.a, traces.b, extra) ?? null;
    if (box === this.#evidence) this.#first = { figures, held: picture?.held ?? null };
    if (!picture) return;
    const width = this.element.clientWidth;
    import('../charts/index.js').then(
      (charts) => {
        if (!box.contains(open)) return; // read again since: that reading draws its own
        box.prepend(charts.inlineFigure(picture, figures, width));
      },
      () => {}, // the explorer says the charts could not load; the sentence and the button stand
    );
  }
}

/**
 * Resolves after the page has had a moment to itself (an idle callback, or soon when it never idles).
 * @returns {Promise<void>}
 */
function idleMoment() {
  return new Promise((resolve) => {
    if (typeof requestIdleCallback === 'function') requestIdleCallback(() => resolve(), { timeout: 100 });
    else setTimeout(resolve, 0);
  });
}

/**
 * "Open in the explorer" for a serving investigation: the explorer's "Under load" part, opened
 * and brought into view, focus on its heading (where its own simulation of the scenario starts).
 * @param {import('../explorer/explorer.js').Explorer} explorer
 */
function revealUnderLoad(explorer) {
  const part = explorer.underLoad?.element;
  if (!part) return;
  part.open = true;
  const still = window.matchMedia?.('(prefers-reduced-motion: reduce)').matches;
  part.scrollIntoView({ behavior: still ? 'auto' : 'smooth', block: 'start' });
  part.querySelector('summary')?.focus({ preventScroll: true });
}
