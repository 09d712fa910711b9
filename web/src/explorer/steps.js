// @ts-check
// The five mechanism steps as a trace: each lesson step with the engine's facts for it, its
// totals and its dominant bound. A toggle per step selects it, and the charts highlight its
// operators. The cards persist across updates and are updated in place (only text that
// changed is touched; a list is rebuilt only when its items change), so focus on a toggle
// survives a new trace and a new trace costs little layout.

import { h, setAttr, setText } from '../dom.js';
import * as fmt from '../format.js';

/** @typedef {import('prefill-trace').TraceDocument} TraceDocument */
/** @typedef {import('prefill-trace').Step2Facts['projections'][number]} Projection */
/**
 * One fact as shown: its JSON path, key and label, and its text or, for a group, its facts.
 * @typedef {{path: string, key: string, label: string, text?: string, children?: FactEntry[]}} FactEntry
 */

/**
 * The engine's description of the trace's leaves (Engine.traceLeaves: docs/trace-json.md, "Units
 * and labels"), by path; null when the module could not say, and then facts show under their keys.
 * @typedef {Map<string, import('prefill-trace').TraceLeaf>|null} Leaves
 */

/** Where a step's facts sit in the trace document, as the leaves' paths spell it. */
const FACTS_PATH = 'steps/*/facts';
/** A fact the description does not rank comes after the ranked ones, in the JSON's key order. */
const UNRANKED = Number.MAX_SAFE_INTEGER;

/**
 * Formats one fact by the unit the engine gives it; null means the engine has no value (for a
 * time of step 5: the queue is overloaded, so the wait is unbounded).
 * @param {import('prefill-trace').TraceLeaf|undefined} leaf  the fact's description
 * @param {number | string | boolean | null} value  a leaf of a step's facts
 */
function formatFact(leaf, value) {
  if (value === null) return leaf?.unit === 'seconds' ? 'unbounded (overloaded)' : 'none';
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (typeof value === 'string') return value;
  switch (leaf?.unit) {
    case 'bytes':
      return fmt.bytes(value);
    case 'seconds':
      return fmt.seconds(value);
    case 'flop_per_byte':
      return fmt.intensity(value);
    case 'flop':
      return `${fmt.flops(value)} (${fmt.count(value)})`;
    case 'fraction':
      return fmt.number(value, 3);
    case 'per_second':
      return fmt.rate(value);
    default:
      return fmt.count(value);
  }
}

/**
 * The facts in the description's order, nested groups flattened: `[{path, label, text | group}]`.
 * @param {object} facts  a step's facts (or a group of them)
 * @param {Leaves} leaves
 * @param {string[]} [skip]
 * @param {string} [prefix]
 * @returns {FactEntry[]}
 */
function factEntries(facts, leaves, skip = [], prefix = '') {
  /** @param {string} key */
  const described = (key) => leaves?.get(`${FACTS_PATH}${prefix}/${key}`);
  /** @param {string} key */
  const rank = (key) => {
    const r = described(key)?.rank ?? -1;
    return r < 0 ? UNRANKED : r;
  };
  /** @type {FactEntry[]} */
  const entries = [];
  const sorted = Object.entries(facts).sort(([a], [b]) => rank(a) - rank(b));
  for (const [key, value] of sorted) {
    if (skip.includes(key)) continue;
    const path = `${prefix}/${key}`;
    const label = described(key)?.label || key.replaceAll('_', ' ');
    if (value && typeof value === 'object' && !Array.isArray(value)) {
      entries.push({ path, key, label, children: factEntries(value, leaves, [], path) });
    } else if (!Array.isArray(value)) {
      entries.push({ path, key, label, text: formatFact(described(key), /** @type {number | string | boolean | null} */ (value)) });
    }
  }
  return entries;
}

/**
 * @param {FactEntry[]} entries
 * @returns {string}
 */
function signatureOf(entries) {
  return entries.map((e) => (e.children ? `${e.path}{${signatureOf(e.children)}}` : e.path)).join('|');
}

/**
 * The <dl> of `entries`; the value <dd> of each fact is pushed to `values` in order.
 * @param {FactEntry[]} entries
 * @param {HTMLElement[]} values
 * @returns {HTMLElement}
 */
function factList(entries, values) {
  return h(
    'dl',
    { class: 'facts' },
    entries.map((e) => {
      if (e.children) {
        return h('div', { class: 'fact-group' }, h('dt', {}, e.label), h('dd', {}, factList(e.children, values)));
      }
      const dd = h('dd', {}, e.text);
      values.push(dd);
      return h('div', { class: 'fact', 'data-fact': e.key }, h('dt', {}, e.label), dd);
    }),
  );
}

/**
 * @param {FactEntry[]} entries
 * @param {string[]} [out]
 */
function leafTexts(entries, out = []) {
  for (const e of entries) {
    if (e.children) leafTexts(e.children, out);
    else out.push(/** @type {string} */ (e.text));
  }
  return out;
}

/** A step's facts, rebuilt only when the set of facts changes; otherwise their text is updated. */
class FactsView {
  /** @param {Leaves} leaves  the labels, units and order of the facts */
  constructor(leaves) {
    this.leaves = leaves;
    this.element = h('div', { class: 'facts-view' });
    /** @type {string | null} */
    this.signature = null;
    /** @type {HTMLElement[]} */
    this.values = [];
  }

  /**
   * @param {object} facts
   * @param {string[]} skip
   */
  update(facts, skip) {
    const entries = factEntries(facts, this.leaves, skip);
    const signature = signatureOf(entries);
    if (signature !== this.signature) {
      this.signature = signature;
      this.values = [];
      this.element.replaceChildren(factList(entries, this.values));
      return;
    }
    leafTexts(entries).forEach((text, i) => setText(this.values[i], text));
  }
}

const PROJECTION_COLUMNS = ['Projection', 'd_in × d_out', 'FLOPs per request', 'Intensity (FLOP/byte)', 'Rows to ridge', 'Bound'];

/** @param {Projection} p */
function projectionCells(p) {
  return [
    p.name,
    `${fmt.count(p.d_in)} × ${fmt.count(p.d_out)}`,
    fmt.flops(p.flops_per_request),
    fmt.number(p.intensity, 4),
    p.rows_to_reach_ridge === null ? 'never' : fmt.count(p.rows_to_reach_ridge),
    fmt.bound(p.bound),
  ];
}

/** The step-2 projections table, rebuilt only when the projections listed change. */
class ProjectionTable {
  constructor() {
    this.element = h('div', { class: 'projections' });
    /** @type {string | null} */
    this.signature = null;
    /** @type {(HTMLElement | null)[][]} */
    this.rows = [];
  }

  /** @param {Projection[] | undefined} projections */
  update(projections) {
    if (!Array.isArray(projections)) {
      this.signature = null;
      this.element.replaceChildren();
      return;
    }
    const signature = projections.map((p) => p.name).join('|');
    if (signature !== this.signature) {
      this.signature = signature;
      this.rows = projections.map(() => PROJECTION_COLUMNS.map(() => null));
      const body = h(
        'tbody',
        {},
        projections.map((p, r) =>
          h(
            'tr',
            { 'data-projection': p.name },
            PROJECTION_COLUMNS.map((_, c) => {
              if (c === 0) return (this.rows[r][c] = h('th', { scope: 'row' }));
              // The column's name, shown beside the value when the table is laid out as one
              // card per projection (narrow containers, style.css).
              const td = h('td', { 'data-label': PROJECTION_COLUMNS[c] });
              if (c === PROJECTION_COLUMNS.length - 1) {
                this.rows[r][c] = h('span', { class: 'bound-badge' });
                td.append(this.rows[r][c]);
              } else {
                this.rows[r][c] = td;
              }
              return td;
            }),
          ),
        ),
      );
      this.element.replaceChildren(
        h(
          'div',
          { class: 'table-wrap' },
          h(
            'table',
            { class: 'data' },
            h('caption', {}, 'Projections (F = 2·T·d_in·d_out per request)'),
            h('thead', {}, h('tr', {}, PROJECTION_COLUMNS.map((c) => h('th', { scope: 'col' }, c)))),
            body,
          ),
        ),
      );
    }
    projections.forEach((p, r) => {
      // Every cell was made with the table (above).
      const cells = /** @type {HTMLElement[]} */ (this.rows[r]);
      projectionCells(p).forEach((text, c) => setText(cells[c], text));
      setAttr(cells[PROJECTION_COLUMNS.length - 1], 'class', `bound-badge bound-${p.bound}`);
    });
  }
}

/**
 * A step's verdict: its bound, or for step 4 (no kernels) whether the memory fits. Step 5's
 * time to first token is mostly waiting when the queue holds more of it than the kernels do:
 * then the badge says so (the kernels' bound stays in `data-bound`).
 * @param {TraceDocument['steps'][number]} step
 * @param {TraceDocument} trace
 * @returns {{className: string, bound: string, text: string, dominant?: string}}
 */
function badgeOf(step, trace) {
  const facts = /** @type {Partial<import('prefill-trace').Step5Facts>} */ (step.facts ?? {});
  if (step.step === 5 && facts.overloaded) {
    return { className: 'bound-badge bound-queue', bound: step.bound ?? 'none', text: 'queueing dominates · overloaded', dominant: 'queueing' };
  }
  if (step.step === 5 && facts.total_seconds != null && facts.total_seconds > 0 && facts.queue_seconds != null && facts.queue_seconds / facts.total_seconds > 0.5) {
    return {
      className: 'bound-badge bound-queue',
      bound: step.bound ?? 'none',
      text: `queueing dominates · ${fmt.percent(facts.queue_seconds / facts.total_seconds)} of TTFT`,
      dominant: 'queueing',
    };
  }
  if (step.bound) {
    return { className: `bound-badge bound-${step.bound}`, bound: step.bound, text: fmt.bound(step.bound) };
  }
  const fits = trace.totals.memory.fits;
  return {
    className: `bound-badge ${fits ? 'fit-yes' : 'fit-no'}`,
    bound: 'none',
    text: fits ? 'no kernels · fits' : 'no kernels · does not fit',
  };
}

/**
 * One step's card and the nodes an update writes.
 * @typedef {{item: HTMLElement, toggle: HTMLElement, heading: HTMLElement, badge: HTMLElement, text: HTMLElement, totals: HTMLElement, ops: HTMLElement, opsLine: HTMLElement, facts: FactsView, projections: ProjectionTable}} StepCard
 */

/** The mechanism's steps: the engine's trace has one entry per step, in order. */
export const STEP_COUNT = 5;

export class StepTrace {
  /**
   * @param {(step: number|null) => void} onSelect
   * @param {Leaves} [leaves]  the engine's description of the trace (Engine.traceLeaves): the
   *   facts' labels, units and order
   */
  constructor(onSelect, leaves = null) {
    this.leaves = leaves;
    /** @type {number | null} */
    this.selected = null;
    /** @type {StepCard[]} */
    this.cards = [];
    this.list = h('ol', { class: 'trace-steps' });
    // Made up front, so each card can be watched and drawn on its own (updateStep).
    for (let i = 0; i < STEP_COUNT; i += 1) {
      const card = this.#card(i);
      this.cards.push(card);
      this.list.append(card.item);
    }
    this.element = h(
      'section',
      { class: 'explorer-block steps-block', 'aria-labelledby': 'steps-heading' },
      h('h3', { id: 'steps-heading' }, 'The five steps, computed'),
      h(
        'p',
        { class: 'hint' },
        'Each step of the mechanism with the figures the engine computed for it. ',
        '“Highlight in charts” marks a step’s operators in the pictures below.',
      ),
      this.list,
    );
    this.onSelect = onSelect;
  }

  /**
   * @param {number} index
   * @returns {StepCard}
   */
  #card(index) {
    const toggle = h(
      'button',
      { type: 'button', class: 'step-toggle', 'aria-pressed': 'false' },
      'Highlight in charts',
      h('span', { class: 'visually-hidden' }, ` (step ${index + 1})`),
    );
    toggle.addEventListener('click', () => {
      const step = index + 1;
      this.select(this.selected === step ? null : step);
      this.onSelect(this.selected);
    });
    const heading = h('h4', { class: 'step-title' });
    const badge = h('span', { class: 'bound-badge' });
    const text = h('p', { class: 'step-text' });
    const totals = h('span', {});
    const ops = h('span', {});
    const opsLine = h('p', { class: 'step-ops' }, h('span', { class: 'label' }, 'Operators'), ' ', ops);
    const about = h(
      'div',
      { class: 'step-about' },
      text,
      h('p', { class: 'step-totals' }, h('span', { class: 'label' }, 'Step totals'), ' ', totals),
      opsLine,
    );
    const facts = new FactsView(this.leaves);
    const projections = new ProjectionTable();
    const item = h(
      'li',
      { class: 'trace-step', 'data-step': String(index + 1) },
      h(
        'div',
        { class: 'step-main' },
        h(
          'div',
          { class: 'step-head' },
          h('span', { class: 'step-number' }, `Step ${index + 1}`),
          h('div', { class: 'step-bound' }, badge),
        ),
        heading,
        about,
        toggle,
      ),
      h('div', { class: 'step-facts' }, facts.element, projections.element),
    );
    return { item, toggle, heading, badge, text, totals, ops, opsLine, facts, projections };
  }

  /**
   * @param {number | null} step
   */
  select(step) {
    this.selected = step;
    this.cards.forEach((card, i) => {
      const on = step === i + 1;
      setAttr(card.toggle, 'aria-pressed', String(on));
      if (card.item.classList.contains('is-selected') !== on) card.item.classList.toggle('is-selected', on);
    });
  }

  /**
   * The card of step `index + 1` (0-based `index`) from `trace`.
   * @param {number} index
   * @param {TraceDocument} trace
   */
  updateStep(index, trace) {
    const step = trace.steps[index];
    const card = this.cards[index];
    if (!step || !card) return;
    setText(card.heading, step.title);
    const badge = badgeOf(step, trace);
    setAttr(card.badge, 'class', badge.className);
    setAttr(card.badge, 'data-bound', badge.bound);
    setAttr(card.badge, 'data-dominant', badge.dominant ?? badge.bound);
    setText(card.badge, badge.text);
    setText(card.text, step.text);
    setText(
      card.totals,
      `${fmt.flops(step.totals.flops)} · ${fmt.bytes(step.totals.hbm_bytes)} HBM · ${fmt.seconds(step.totals.seconds)}`,
    );
    setText(card.ops, step.operators.join(', '));
    if (card.opsLine.hidden !== !step.operators.length) card.opsLine.hidden = !step.operators.length;
    const facts = /** @type {Partial<import('prefill-trace').Step2Facts>} */ (step.facts ?? {});
    card.facts.update(facts, ['projections', 'reuse_example']);
    card.projections.update(facts.projections);
  }
}
