// Guided investigations (catalog.js): one per claim of the lesson. The reader commits to a
// prediction, then "Show me" sets the scenario(s) in the explorer (A pinned beside B when the
// claim is a comparison, compare.js) and the result is read in one sentence made from the
// engine's traces of those scenarios; "Change one condition" changes both alike and reads again.
//
// A prediction is kept like a quiz answer (progress.js): keyed by the SHA-256 of the
// investigation's question and options, in the element's storage mode, and reported by the
// element's `prefill-trace-answer` event ({questionKey, answer: the option's index, correct:
// whether the engine's numbers bore it out}). The whole block is the element's
// `::part(investigations)`, a <details> a host can close, open or hide.
//
// Each investigation's form is built when it is first opened: the block costs the first
// drawing of the page one <details> per claim.

import { h, setText } from '../dom.js';
import { questionKeyText, sha256Hex } from '../progress.js';
import { scenarioJson } from '../scenario.js';
import { INVESTIGATIONS } from './catalog.js';

/** The sentence parts as nodes: a figure becomes <data value="…" data-name="…">text</data>. */
function sentenceNodes(parts) {
  return parts.flat(Infinity).map((part) =>
    typeof part === 'string' ? part : h('data', { value: String(part.value), 'data-name': part.name }, part.text),
  );
}

export class Investigations {
  #engine;
  #explorer;
  #compare;
  #progress;
  #done = new Map();
  #items = [];

  /**
   * @param {object} options
   * @param {import('../engine.js').Engine} options.engine
   * @param {import('../explorer/explorer.js').Explorer} options.explorer
   * @param {import('../compare/compare.js').Compare} options.compare
   * @param {import('../progress.js').ProgressStore} options.progress
   */
  constructor({ engine, explorer, compare, progress }) {
    this.#engine = engine;
    this.#explorer = explorer;
    this.#compare = compare;
    this.#progress = progress;
    this.count = h('span', { class: 'investigations-count' });
    this.list = h('div', { class: 'investigations-list' });
    this.element = h(
      'details',
      { class: 'investigations', part: 'investigations', open: true, 'data-count': INVESTIGATIONS.length },
      h('summary', {}, h('span', { class: 'investigations-title' }, 'Guided investigations'), ' ', this.count),
      h(
        'p',
        { class: 'hint' },
        'One claim of the lesson each: predict first, then let the engine show you. ',
        '“Show me” sets the explorer below; a comparison pins one scenario as A beside the other.',
      ),
      this.list,
    );
    for (const spec of INVESTIGATIONS) this.#items.push(this.#item(spec));
    this.list.append(...this.#items.map((i) => i.element));
    this.#renderCount();
  }

  /** "Forget my answers": every prediction is cleared. */
  reset() {
    this.#done.clear();
    for (const item of this.#items) item.reset();
    this.#renderCount();
  }

  #renderCount() {
    const done = [...this.#done.values()].length;
    setText(this.count, `(${done} of ${INVESTIGATIONS.length} predicted)`);
  }

  #traceOf(state) {
    const full = this.#explorer.withPresetShape(state);
    const result = this.#engine.computeTrace(scenarioJson(full));
    return result.ok ? result.value : null;
  }

  #item(spec) {
    const element = h(
      'details',
      { class: 'investigation', 'data-investigation': spec.id },
      h('summary', {}, h('span', { class: 'investigation-claim' }, spec.claim), ' ', h('span', { class: 'investigation-state' })),
    );
    const state = element.querySelector('.investigation-state');
    const keyPromise = sha256Hex(questionKeyText({ investigation: spec.id, question: spec.question, options: spec.options })).catch(() => null);
    let form = null;
    let saved = null;
    const item = {
      element,
      reset: () => {
        saved = null;
        setText(state, '');
        element.removeAttribute('data-result');
        if (form) {
          form.remove();
          form = null;
        }
      },
    };
    const build = () => {
      if (form) return;
      form = this.#form(spec, keyPromise, (answer, correct) => {
        saved = { answer, correct };
        this.#done.set(spec.id, correct);
        element.dataset.result = correct ? 'matched' : 'missed';
        setText(state, correct ? '— predicted right' : '— predicted, not borne out');
        this.#renderCount();
      });
      element.append(form.element);
      if (saved) form.restore(saved.answer);
    };
    element.addEventListener('toggle', () => {
      if (element.open) build();
    });
    keyPromise.then((key) => {
      const stored = key ? this.#progress.get(key) : null;
      if (!stored || saved) return;
      saved = stored;
      this.#done.set(spec.id, stored.correct);
      element.dataset.result = stored.correct ? 'matched' : 'missed';
      setText(state, stored.correct ? '— predicted right' : '— predicted, not borne out');
      this.#renderCount();
      form?.restore(stored.answer);
    });
    return item;
  }

  #form(spec, keyPromise, onPredicted) {
    const name = `investigate-${spec.id}`;
    const questionId = `${name}-question`;
    const options = spec.options.map((text, i) =>
      h('label', { class: 'option' }, h('input', { type: 'radio', name, value: String(i) }), h('span', { class: 'option-text' }, text)),
    );
    const show = h('button', { type: 'submit', class: 'button' }, 'Show me');
    const verdict = h('p', { class: 'investigation-verdict' });
    const reading = h('p', { class: 'investigation-reading', 'data-reading': 'first' });
    const next = h('button', { type: 'button', class: 'button button--quiet', hidden: true }, `Change one condition: ${spec.next.label}`);
    const nextReading = h('p', { class: 'investigation-reading', 'data-reading': 'next', hidden: true });
    const result = h('div', { class: 'investigation-result', role: 'status', 'aria-live': 'polite' }, verdict, reading);
    const element = h(
      'form',
      { class: 'investigation-form', 'aria-labelledby': questionId, novalidate: true },
      h('fieldset', {}, h('legend', {}, h('p', { id: questionId, class: 'investigation-question' }, spec.question)), h('div', { class: 'options' }, options)),
      h('p', { class: 'hint' }, 'Commit to a prediction, then reveal what the engine computes.'),
      show,
      result,
      next,
      nextReading,
    );
    let predicted = null;
    let scenarios = null;

    const lock = (answer) => {
      predicted = answer;
      for (const label of options) {
        const input = label.querySelector('input');
        input.checked = Number(input.value) === answer;
        input.disabled = true;
      }
    };

    /** Sets the scenarios in the explorer and reads them; returns the engine's traces. */
    const run = (states) => {
      const a = states.a ? this.#traceOf(states.a) : null;
      const b = this.#traceOf(states.b);
      if (!b || (states.a && !a)) return null;
      this.#compare.pin(states.a ? this.#explorer.withPresetShape(states.a) : null);
      this.#explorer.apply(this.#explorer.withPresetShape(states.b));
      return { a, b };
    };

    element.addEventListener('submit', (event) => {
      event.preventDefault();
      const picked = element.querySelector('input:checked');
      if (predicted === null && !picked) {
        setText(verdict, 'Choose a prediction first: the point is to commit before you see.');
        return;
      }
      if (predicted === null) lock(Number(picked.value));
      scenarios = spec.scenarios(this.#explorer.defaults, (s) => this.#traceOf(s));
      const traces = run(scenarios);
      if (!traces) {
        setText(verdict, 'The engine could not compute this investigation’s scenario.');
        return;
      }
      const right = spec.verdict(traces.a, traces.b);
      const correct = right === predicted;
      verdict.replaceChildren(
        h('span', { class: `verdict verdict--${correct ? 'correct' : 'incorrect'}` }, correct ? 'Your prediction holds.' : 'Not this time.'),
        ` You predicted “${spec.options[predicted]}”; the engine’s numbers bear out “${spec.options[right]}”.`,
      );
      reading.replaceChildren(...sentenceNodes(spec.read(traces.a, traces.b)));
      element.dataset.verdict = String(right);
      next.hidden = false;
      nextReading.hidden = true;
      show.textContent = 'Show me again';
      keyPromise.then((key) => {
        if (key) this.#progress.save(key, predicted, correct);
      });
      onPredicted(predicted, correct);
    });

    next.addEventListener('click', () => {
      if (!scenarios) return;
      const traceOf = (s) => this.#traceOf(s);
      const changed = {
        a: scenarios.a ? spec.next.apply(scenarios.a, traceOf) : null,
        b: spec.next.apply(scenarios.b, traceOf),
      };
      const traces = run(changed);
      nextReading.hidden = false;
      if (!traces) {
        setText(nextReading, 'The engine could not compute the changed scenario.');
        return;
      }
      nextReading.replaceChildren(h('span', { class: 'label' }, 'With that change: '), ...sentenceNodes(spec.read(traces.a, traces.b)));
    });

    return {
      element,
      /** A saved prediction: locked in, and the verdict says so until "Show me" reads again. */
      restore(answer) {
        if (!Number.isInteger(answer) || answer < 0 || answer >= spec.options.length) return;
        lock(answer);
        setText(verdict, `You predicted “${spec.options[answer]}”. Show me to read the engine’s numbers again.`);
      },
    };
  }
}
