// The lesson's claims, one guided investigation each (investigations.js shows them). An
// investigation asks a question, takes the reader's prediction, then sets one or two scenarios
// (B is shown in the explorer; A, when there is one, is pinned beside it for comparison) and
// reads the result in one sentence built from the engine's traces of those scenarios. Nothing
// here computes a figure of the model: every number in a sentence is a field of a trace the
// engine returned (or the ratio, difference or quotient of two such fields, named as such).
//
// Each entry:
//   id         stable name (progress keys, tests, `data-investigation`)
//   claim      the lesson's claim, as the entry's title
//   question   asked before anything is shown
//   options    the predictions offered
//   scenarios(base, traceOf) → {a: state|null, b: state}   on top of the explorer's defaults
//   verdict(a, b) → the index of the option the engine's numbers bear out (a: null without A)
//   read(a, b) → the sentence: an array of strings and figures (`figure(name, value, text)`)
//   next       {label, apply(state, traceOf) → state}: "change one condition", applied to A
//              and B alike, then read again
//   terms      the glossary's words the question and sentence use (plain-words/glossary.js),
//              defined in place
//   explorer   {chart, sweep?}: the explorer's chart that shows the claim in full ("Open in the
//              explorer"), and the sweep's variable and axes when it is the sweep
//   picture(a, b, extra) → {groups} | null: the key figure drawn under the sentence; a group is
//              a pair ({scale: log | linear, unit: seconds | bytes | none, title, rows, rule})
//              or the queueing curve
//              (charts/inline.js), naming the sentence's figures it draws; `extra` holds the
//              engine's sweep when the entry asks for one (`sweep`) and the first reading's
//              picture when drawing the second (`held`), whose axes the second keeps
//   sweep(b) → {variable, values}: the engine's sweep the picture draws (queueing only)
//   passes(states) → {name: {state, serving}}: serving simulations (simulateServing,
//              docs/serving.md) whose reports `read` and `picture` also get, as `served`
//              (read(a, b, served); picture's extra.served): null when the engine has no
//              simulation or refused one, and the sentence then leaves out what they say

import { niceCeil } from '../compare/compare.js';
import * as fmt from '../format.js';

/** @typedef {import('prefill-trace').TraceDocument} TraceDocument */
/** @typedef {import('../scenario.js').ScenarioState} ScenarioState */
/** @typedef {import('../charts/sweep.js').SweepVariable} SweepVariable */
/** The engine's trace of a scenario, or null when it refuses it. @typedef {(state: ScenarioState) => TraceDocument | null} TraceOf */
/** @typedef {import('../charts/inline.js').Figure} Figure */
/** A sentence: texts and figures, nested as the entry builds them (flattened when shown). @typedef {string | Figure | NestedSentence} SentencePart */
/** @typedef {Array<SentencePart>} NestedSentence */
/** What the first reading's picture keeps for the second's (its axes, its curve). @typedef {{points?: import('prefill-trace').SweepPoint[], xTop?: number, yTop?: number, utilization?: number, top?: number, devices?: string, prompt?: string, budget?: string}} Held */
/** @typedef {import('../charts/inline.js').Picture & {held?: Held}} EntryPicture */
/** The engine's serving reports a trace entry's `passes` asked for (null without them). @typedef {Record<string, import('prefill-trace').ServingReport> | null} Served */
/** The engine's sweep when the entry asks for one, the first reading's `held` and the `passes` reports. @typedef {{sweep?: import('prefill-trace').SweepDocument | null, held?: Held | null, served?: Served}} PictureExtra */
/**
 * A serving investigation's reading (serving-catalog.js): each simulation's report, the traces
 * its sentence reads and the scenario shown.
 * @typedef {{runs: Record<string, import('prefill-trace').ServingReport>, plans: Record<string, import('prefill-trace').PlanDocument>, traces: Record<string, TraceDocument>, state: ScenarioState}} ServingReading
 */
/**
 * What a serving investigation runs: the scenario shown, each simulation's `serving` object and
 * the scenarios whose traces the sentence reads.
 * @typedef {{state: ScenarioState, runs: Record<string, object>, plans?: Record<string, {serving: object, devices: number}>, traces?: Record<string, ScenarioState>}} ServingSetup
 */
/**
 * One investigation, reading scenario A as an A and B as a B (the fields described above).
 * Methods, not function-valued members: form.js holds any entry as Investigation<unknown, unknown>.
 * `plans`: its serving setup has placement searches (investigations.js loads their Worker when it
 * is opened). `details`, optional: how the sentence's figures were found, shown folded under the reading
 * (a sentence keeps its figures and source; the method behind them can wait for a click).
 * @template A, B
 * @typedef {{
 *   id: string, claim: string, question: string, options: string[],
 *   terms: (keyof typeof import('../plain-words/glossary.js').TERMS)[],
 *   explorer: {chart?: string, part?: string, sweep?: {variable: SweepVariable, scale: string}},
 *   verdict(a: A, b: B): number,
 *   read(a: A, b: B, served?: Served): SentencePart[],
 *   details?(a: A, b: B): string,
 *   picture?(a: A, b: B, extra: PictureExtra): EntryPicture | null,
 *   next: {label: string, apply?(state: ScenarioState, traceOf: TraceOf): ScenarioState},
 *   scenarios?(base: ScenarioState, traceOf: TraceOf): {a: ScenarioState | null, b: ScenarioState},
 *   sweep?(b: B): {variable: SweepVariable, values: number[]},
 *   passes?(states: {a: ScenarioState | null, b: ScenarioState}): Record<string, {state: ScenarioState, serving: object}>,
 *   serving?(base: ScenarioState, options: {changed: boolean, traceOf: TraceOf}): ServingSetup,
 *   plans?: boolean,
 * }} Investigation
 */

/**
 * A number in a sentence: shown as `text`, kept exactly as `value` (a <data> element).
 * @param {string} name
 * @param {number | null} value  null: the engine has none (an overloaded TTFT)
 * @param {string} text
 * @returns {Figure}
 */
export function figure(name, value, text) {
  return { name, value, text };
}

/** @type {(trace: TraceDocument, name?: string) => import('prefill-trace').Step2Facts['projections'][number]} */
const projection = (trace, name = 'qkv_projection') =>
  // Every trace has the three projections by name (src/trace/step_facts.cpp).
/** @type {import('prefill-trace').Step2Facts['projections'][number]} */ (trace.steps[1].facts.projections.find((p) => p.name === name));
const ridgeOf = (/** @type {TraceDocument} */ trace) => trace.steps[1].facts.ridge_flops_per_byte;
const queueing = (/** @type {TraceDocument} */ trace) => trace.steps[4].facts;
const tokens = (/** @type {number} */ n) => `${fmt.count(n)} ${n === 1 ? 'token' : 'tokens'}`;
/** A trace's prompt as the sentence needs it: "32 tokens", or "8 prompts of 32 tokens" in a batch. */
/** @type {(trace: TraceDocument) => string} */
export const promptOf = ({ scenario: { batch, prompt_tokens: n } }) =>
  batch > 1 ? `${fmt.count(batch)} prompts of ${tokens(n)}` : tokens(n);
/** A quotient of two engine figures, with the digits a reader needs. */
/** A queue figure of a scenario that is not overloaded: the engine gives every one then. */
const known = (/** @type {number | null} */ value) => /** @type {number} */ (value);
const times = (/** @type {number} */ value) => `${fmt.number(value, 3)}×`;
const INTENSITY_AXIS = 'Q/K/V projection intensity (FLOP/byte, log scale)';
/** An inline picture's row: the sentence's figure `name`, labelled `label` (`a`: scenario A's tone). */
/** @type {(name: string, label: string, a?: boolean) => import('../charts/inline.js').PairRow} */
const row = (name, label, a = false) => ({ name, label, tone: a ? 'inline-a' : 'inline-b' });

/**
 * The chunking entry's serving run: the prompt alone in steps of the chunk size (its longest pass).
 * @param {{a: ScenarioState | null, b: ScenarioState}} states
 * @returns {Record<string, {state: ScenarioState, serving: object}>}
 */
function chunkPasses({ b }) {
  return {
    chunked: {
      state: { ...b, chunk: 0 },
      serving: { policy: 'chunked', token_budget: b.chunk, rows: [[0, b.prompt, 1]], timeline_points: 0 },
    },
  };
}

/** @type {Investigation<TraceDocument, TraceDocument>} */
const chunkingEntry = {
  id: 'chunking',
  claim: 'Chunking protects decode deadlines',
  question:
    'A 16,384-token prompt is split into chunks of 2,048 tokens, each scheduled as a pass of its own. ' +
    'What does chunking buy, and what does it cost?',
  options: [
    'The prompt itself gets faster: small passes run more efficiently',
    'Each pass holds the accelerator less long; weights are read once per chunk',
    'Nothing: the same time, the same traffic and the same longest pass',
  ],
  terms: ['tpot', 'hbm'],
  explorer: { chart: 'time' },
  picture: (a, b, extra) => ({
    groups: [
      {
        scale: 'linear',
        unit: 'seconds',
        title: 'How long a pass holds the accelerator',
        rows: [
          row('seconds-a', 'Unchunked: its one pass', true),
          row('seconds-per-pass', 'Chunked: a pass, on average'),
          ...(extra.served ? [row('longest-pass', 'Chunked: its longest pass')] : []),
        ],
      },
      { scale: 'linear', unit: 'seconds', title: 'The whole prompt', rows: [row('seconds-a', 'Unchunked', true), row('seconds-b', 'Chunked')] },
    ],
  }),
  scenarios: (base) => ({
    a: { ...base, prompt: 16384, chunk: 0 },
    b: { ...base, prompt: 16384, chunk: 2048 },
  }),
  // The trace gives the chunks' total, not each chunk's time: the longest single pass (the
  // last chunk, whose attention reads every earlier chunk's K/V) is the serving simulation's
  // `longest_iteration_seconds` of the prompt alone, scheduled in steps of the chunk size.
  passes: chunkPasses,
  verdict(a, b) {
    if (b.totals.seconds < a.totals.seconds * 0.95) return 0;
    const chunks = b.steps[3].facts.chunking.chunks;
    return chunks > 1 && b.steps[3].facts.chunking.extra_weight_bytes > 0 ? 1 : 2;
  },
  read(a, b, served) {
    const chunking = b.steps[3].facts.chunking;
    const perPass = b.totals.seconds / chunking.chunks;
    const longest = /** @type {Served} */ (served)?.chunked?.longest_iteration_seconds;
    return [
      'Unchunked, the prompt holds the accelerator for ',
      figure('seconds-a', a.totals.seconds, fmt.seconds(a.totals.seconds)),
      ' in one pass; in ',
      figure('chunks', chunking.chunks, fmt.count(chunking.chunks)),
      ` chunks of ${tokens(chunking.chunk_tokens)} each pass holds it for `,
      figure('seconds-per-pass', perPass, fmt.seconds(perPass)),
      ...(longest === undefined
        ? [' on average (later chunks longer: their attention reads every earlier chunk); the price is ']
        : [
            ' on average and the longest, the last chunk (its attention reads every earlier chunk), for ',
            figure('longest-pass', longest, fmt.seconds(longest)),
            ', so a decode step waits at most one such pass, not the whole prompt; the price is ',
          ]),
      figure('extra-weight-bytes', chunking.extra_weight_bytes, fmt.bytes(chunking.extra_weight_bytes)),
      ' more weight traffic, and the whole prompt takes ',
      figure('seconds-b', b.totals.seconds, fmt.seconds(b.totals.seconds)),
      '.',
    ];
  },
  next: {
    label: 'use chunks of 512 tokens: shorter passes, more weight traffic',
    apply: (state) => (Number(state.chunk) > 0 ? { ...state, chunk: 512 } : state),
  },
};

/**
 * @type {readonly Investigation<TraceDocument, TraceDocument>[]}
 */
export const INVESTIGATIONS = Object.freeze([
  {
    id: 'reuse-grows',
    claim: 'Weight reuse grows with prompt length',
    question:
      'The Q/K/V projection loads the same weights whatever the prompt. When the prompt grows from 16 to ' +
      '4,096 tokens, what happens to its arithmetic intensity (FLOP per byte moved from memory)?',
    options: [
      'It stays about the same: the weights dominate the bytes either way',
      'It grows many times over: each weight loaded serves more token rows',
      'It falls: a longer prompt moves more activation bytes per FLOP',
    ],
    terms: ['arithmetic-intensity', 'ridge-point', 'memory-bound', 'compute-bound'],
    explorer: { chart: 'intensity' },
    picture: (a, b) => ({
      groups: [
        { scale: 'log', title: INTENSITY_AXIS, rows: [row('intensity-a', promptOf(a), true), row('intensity-b', promptOf(b))], rule: { name: 'ridge', label: 'ridge' } },
      ],
    }),
    scenarios: (base) => ({ a: { ...base, prompt: 16 }, b: { ...base, prompt: 4096 } }),
    verdict(a, b) {
      const ratio = projection(b).intensity / projection(a).intensity;
      return ratio >= 2 ? 1 : ratio <= 0.8 ? 2 : 0;
    },
    read(a, b) {
      const [pa, pb] = [projection(a), projection(b)];
      return [
        `At ${promptOf(a)} the Q/K/V projection does `,
        figure('intensity-a', pa.intensity, fmt.intensity(pa.intensity)),
        ` (${fmt.bound(pa.bound)}); at ${promptOf(b)} it does `,
        figure('intensity-b', pb.intensity, fmt.intensity(pb.intensity)),
        ` (${fmt.bound(pb.bound)}), `,
        figure('ratio', pb.intensity / pa.intensity, times(pb.intensity / pa.intensity)),
        ' as much, against a ridge point of ',
        figure('ridge', ridgeOf(b), fmt.intensity(ridgeOf(b))),
        '.',
      ];
    },
    next: {
      label: 'try it in fp8 (one byte per weight): does the ridge point or the intensity move?',
      apply: (state) => ({ ...state, precision: 'fp8' }),
    },
  },
  {
    id: 'memory-bound',
    claim: 'Prefill can be memory-bound',
    question:
      'A short chat turn: a 32-token prompt on the same model and accelerator. Are its step-2 projections ' +
      'compute-bound or memory-bound?',
    options: [
      'Compute-bound: prefill does a lot of arithmetic per token',
      'Memory-bound: too few token rows share each weight load',
    ],
    terms: ['arithmetic-intensity', 'ridge-point', 'memory-bound', 'compute-bound'],
    explorer: { chart: 'roofline' },
    picture: (_, b) => ({
      groups: [{ scale: 'log', title: INTENSITY_AXIS, rows: [row('intensity', promptOf(b))], rule: { name: 'ridge', label: 'ridge' } }],
    }),
    scenarios: (base) => ({ a: null, b: { ...base, prompt: 32 } }),
    verdict: (_, b) => (b.steps[1].bound === 'memory' ? 1 : 0),
    read(_, b) {
      const p = projection(b);
      const below = p.intensity < ridgeOf(b);
      return [
        `At ${promptOf(b)} the Q/K/V projection does `,
        figure('intensity', p.intensity, fmt.intensity(p.intensity)),
        `, ${below ? 'below' : 'above'} the ridge point of `,
        figure('ridge', ridgeOf(b), fmt.intensity(ridgeOf(b))),
        `, so the step-2 projections are ${fmt.bound(b.steps[1].bound)}`,
        p.rows_to_reach_ridge === null
          ? '; no number of rows would reach the ridge.'
          : [
              '; it needs ',
              figure('rows-to-ridge', p.rows_to_reach_ridge, fmt.count(p.rows_to_reach_ridge)),
              ' token rows in one pass to reach it.',
            ],
      ];
    },
    next: {
      label: 'batch 8 such prompts together (256 rows share each weight load)',
      apply: (state) => ({ ...state, batch: 8 }),
    },
  },
  {
    id: 'fused-attention',
    claim: 'Fused attention avoids the score matrix',
    question:
      'An 8,192-token prompt. Compared with attention that writes its score matrix to memory, what does ' +
      'fused (FlashAttention-style) attention change in step 3?',
    options: [
      'It does less arithmetic: it skips most query–key pairs',
      'It moves far fewer bytes; the arithmetic stays the same',
      'Nothing measurable: both read the same keys and values',
    ],
    terms: ['hbm'],
    explorer: { chart: 'bytes' },
    picture: () => ({
      groups: [
        { scale: 'linear', unit: 'bytes', title: 'Step 3: memory traffic', rows: [row('bytes-fused', 'Fused', true), row('bytes-materialized', 'Materialized')] },
        { scale: 'linear', unit: 'seconds', title: 'Step 3: time', rows: [row('seconds-fused', 'Fused', true), row('seconds-materialized', 'Materialized')] },
      ],
    }),
    scenarios: (base) => ({
      a: { ...base, prompt: 8192, attention: 'fused' },
      b: { ...base, prompt: 8192, attention: 'materialized' },
    }),
    verdict(a, b) {
      const [sa, sb] = [a.steps[2].totals, b.steps[2].totals];
      if (sb.flops > sa.flops * 1.05) return 0;
      return sb.hbm_bytes > sa.hbm_bytes * 1.5 ? 1 : 2;
    },
    read(a, b) {
      const [sa, sb] = [a.steps[2].totals, b.steps[2].totals];
      return [
        `At ${promptOf(b)}, materialized attention writes a score matrix of `,
        figure('score-matrix', b.steps[2].facts.score_matrix_bytes, fmt.bytes(b.steps[2].facts.score_matrix_bytes)),
        ' per layer and moves ',
        figure('bytes-materialized', sb.hbm_bytes, fmt.bytes(sb.hbm_bytes)),
        ' in step 3 against ',
        figure('bytes-fused', sa.hbm_bytes, fmt.bytes(sa.hbm_bytes)),
        ' fused, for the same ',
        figure('flops', sa.flops, fmt.flops(sa.flops)),
        ' of arithmetic; step 3 takes ',
        figure('seconds-materialized', sb.seconds, fmt.seconds(sb.seconds)),
        ' instead of ',
        figure('seconds-fused', sa.seconds, fmt.seconds(sa.seconds)),
        '.',
      ];
    },
    next: {
      label: 'shorten the prompt to 512 tokens: does the gap grow or shrink?',
      apply: (state) => ({ ...state, prompt: 512 }),
    },
  },
  {
    id: 'queueing',
    claim: 'Queueing dominates TTFT near saturation',
    question:
      'Requests arrive at random at 90% of the rate one accelerator can serve 2,048-token prompts. What ' +
      'share of the time to first token (TTFT) is spent waiting in the queue?',
    options: [
      'Under a quarter: at 90% busy the accelerator is often free',
      'About half: waiting and serving take about as long',
      'Over three quarters: the wait grows faster than the load',
    ],
    terms: ['ttft'],
    explorer: { chart: 'sweep', sweep: { variable: 'arrival_rate', scale: 'linear' } },
    sweep: (b) => ({ variable: 'arrival_rate', values: ratesToSaturation(b) }),
    picture: queueingPicture,
    scenarios: (base, traceOf) => ({ a: null, b: { ...base, rate: atUtilization(base, traceOf, 0.9) } }),
    verdict(_, b) {
      const q = queueing(b);
      if (q.overloaded) return 2;
      const share = known(q.queue_seconds) / known(q.total_seconds);
      return share < 0.25 ? 0 : share <= 0.75 ? 1 : 2;
    },
    read(_, b) {
      const q = queueing(b);
      if (q.overloaded) {
        return [
          'At ',
          figure('rate', b.scenario.arrival_rate, fmt.rate(b.scenario.arrival_rate)),
          ' the accelerator would be busy ',
          figure('utilization', q.utilization, fmt.percent(q.utilization)),
          ' of the time: the queue grows without bound.',
        ];
      }
      return [
        'At ',
        figure('rate', b.scenario.arrival_rate, fmt.rate(b.scenario.arrival_rate)),
        ' the accelerator is busy ',
        figure('utilization', q.utilization, fmt.percent(q.utilization)),
        ' of the time; a request waits ',
        figure('queue', q.queue_seconds, fmt.seconds(q.queue_seconds)),
        ' in the queue on average, ',
        figure('queue-share', known(q.queue_seconds) / known(q.total_seconds), fmt.percent(known(q.queue_seconds) / known(q.total_seconds))),
        ' of its ',
        figure('ttft', q.total_seconds, fmt.seconds(q.total_seconds)),
        ' time to first token, against a service time of ',
        figure('service', q.service_seconds, fmt.seconds(q.service_seconds)),
        '.',
      ];
    },
    next: {
      label: 'halve the arrival rate (utilization 45%)',
      apply: (state, traceOf) => ({ ...state, rate: atUtilization({ ...state, rate: 0 }, traceOf, 0.45) }),
    },
  },
  {
    id: 'batching',
    claim: 'Batching raises reuse but delays first tokens',
    question:
      '256-token prompts arrive at 4 per second. Run them 8 at a time instead of one by one: what happens ' +
      'to the projections’ arithmetic intensity and to the time to first token?',
    options: [
      'Intensity rises and the first token comes sooner',
      'Intensity rises but the first token comes later',
      'Neither changes much: each prompt does its own work',
    ],
    terms: ['arithmetic-intensity', 'ttft'],
    explorer: { chart: 'ttft' },
    picture: (a, b) => ({
      groups: [
        { scale: 'log', title: INTENSITY_AXIS, rows: [row('intensity-a', 'One at a time', true), row('intensity-b', `${fmt.count(b.scenario.batch)} at a time`)] },
        { scale: 'linear', unit: 'seconds', title: 'Time to first token', rows: [row('ttft-a', 'One at a time', true), row('ttft-b', `${fmt.count(b.scenario.batch)} at a time`)] },
      ],
    }),
    scenarios: (base) => ({
      a: { ...base, prompt: 256, batch: 1, rate: 4 },
      b: { ...base, prompt: 256, batch: 8, rate: 4 },
    }),
    verdict(a, b) {
      const rises = projection(b).intensity > projection(a).intensity * 1.5;
      if (!rises) return 2;
      const later = b.totals.ttft.overloaded || known(b.totals.ttft.total_seconds) > known(a.totals.ttft.total_seconds);
      return later ? 1 : 0;
    },
    read(a, b) {
      const [pa, pb] = [projection(a), projection(b)];
      const [ta, tb] = [a.totals.ttft, b.totals.ttft];
      return [
        `Batching ${fmt.count(b.scenario.batch)} requests raises the Q/K/V projection from `,
        figure('intensity-a', pa.intensity, fmt.intensity(pa.intensity)),
        ' to ',
        figure('intensity-b', pb.intensity, fmt.intensity(pb.intensity)),
        ', yet the time to first token goes from ',
        figure('ttft-a', ta.total_seconds, ta.overloaded ? 'unbounded (overloaded)' : fmt.seconds(ta.total_seconds)),
        ' to ',
        figure('ttft-b', tb.total_seconds, tb.overloaded ? 'unbounded (overloaded)' : fmt.seconds(tb.total_seconds)),
        ': waiting for the batch to fill adds ',
        figure('formation', queueing(b).batch_formation_seconds, fmt.seconds(queueing(b).batch_formation_seconds)),
        '.',
      ];
    },
    next: {
      label: 'raise the arrival rate to 40 requests per second: the batch fills sooner',
      apply: (state) => ({ ...state, rate: 40 }),
    },
  },
  chunkingEntry,
  {
    id: 'prefill-vs-decode',
    claim: 'Prefill against decode at fixed settings',
    question:
      'At a 2,048-token context, is handling one token in prefill cheaper, about the same, or costlier ' +
      'than generating one token in a decode step?',
    options: [
      'Cheaper in prefill: many tokens share each weight load',
      'About the same: the same model does the same arithmetic per token',
      'Cheaper in decode: each step handles only one new token',
    ],
    terms: ['arithmetic-intensity', 'kv-cache'],
    explorer: { chart: 'decode' },
    picture: (_, b) => ({
      groups: [
        {
          scale: 'linear',
          unit: 'seconds',
          title: 'Time per token',
          rows: [row('prefill-per-token', 'Prefill, a prompt token', true), row(b.scenario.batch > 1 ? 'decode-per-token' : 'decode-seconds', 'Decode, a new token')],
        },
      ],
    }),
    scenarios: (base) => ({ a: null, b: { ...base } }),
    verdict(_, b) {
      const ratio = decodePerToken(b) / prefillPerToken(b);
      return ratio >= 2 ? 0 : ratio <= 0.5 ? 2 : 1;
    },
    read(_, b) {
      const d = b.decode_comparison;
      const [prefill, decode] = [prefillPerToken(b), decodePerToken(b)];
      return [
        `Prefill handles ${fmt.count(b.scenario.batch * b.scenario.prompt_tokens)} prompt tokens in `,
        figure('prefill-seconds', b.totals.seconds, fmt.seconds(b.totals.seconds)),
        ', ',
        figure('prefill-per-token', prefill, fmt.seconds(prefill)),
        ' a token, at ',
        figure('prefill-intensity', d.prefill_intensity, fmt.intensity(d.prefill_intensity)),
        `; one decode step at the same context makes ${fmt.count(b.scenario.batch)} ${b.scenario.batch === 1 ? 'token' : 'tokens'} in `,
        figure('decode-seconds', d.seconds, fmt.seconds(d.seconds)),
        b.scenario.batch > 1 ? [' (', figure('decode-per-token', decode, fmt.seconds(decode)), ' a token)'] : [],
        ' at ',
        figure('decode-intensity', d.intensity, fmt.intensity(d.intensity)),
        ': ',
        figure('ratio', decode / prefill, times(decode / prefill)),
        ' the time per token.',
      ];
    },
    next: {
      label: 'batch 16 requests: decode shares each weight load among 16 tokens',
      apply: (state) => ({ ...state, batch: 16 }),
    },
  },
]);

/**
 * Prefill's modelled time per prompt token (the trace's seconds over its B·T tokens).
 * @param {TraceDocument} trace
 */
export function prefillPerToken(trace) {
  return trace.totals.seconds / (trace.scenario.batch * trace.scenario.prompt_tokens);
}

/**
 * One decode step's time per token made (the step makes one token for each of B requests).
 * @param {TraceDocument} trace
 */
export function decodePerToken(trace) {
  return trace.decode_comparison.seconds / trace.scenario.batch;
}

/**
 * The arrival rate at which `state` keeps its accelerator busy `utilization` of the time: that
 * fraction of the engine's saturation rate (λ where ρ = 1), to four significant digits so the
 * field shows a readable number.
 * @param {ScenarioState} state
 * @param {TraceOf} traceOf
 * @param {number} utilization
 * @returns {import('../scenario.js').FieldValue}
 */
function atUtilization(state, traceOf, utilization) {
  const trace = traceOf(state);
  const saturation = trace?.steps[4].facts.saturation_arrival_rate;
  if (!(saturation !== undefined && saturation > 0)) return state.rate;
  return Number((saturation * utilization).toPrecision(4));
}

/**
 * Arrival rates from 0 to just under saturation (λ where ρ = 1), evenly spaced: the curve's x.
 * @param {TraceDocument} trace
 */
function ratesToSaturation(trace) {
  const saturation = trace.steps[4].facts.saturation_arrival_rate;
  if (!(saturation > 0)) return [0];
  const count = 120;
  return Array.from({ length: count }, (_, i) => (saturation * i) / count);
}

/**
 * The queueing claim as its curve: TTFT against the arrival rate (the engine's sweep), linear
 * axes up to saturation and to ten times the TTFT of an idle accelerator (the explorer's linear
 * sweep's rule, charts/sweep.js linearTop), the reading's point marked. The second reading keeps
 * the first's curve and axes (`held`) and marks both points.
 * @param {TraceDocument} _
 * @param {TraceDocument} b
 * @param {PictureExtra} [extra]
 * @returns {EntryPicture | null}
 */
function queueingPicture(_, b, { sweep = null, held = null } = {}) {
  const points = held?.points ?? sweep?.points;
  const saturation = b.steps[4].facts.saturation_arrival_rate;
  if (!points?.length || !(saturation > 0)) return null;
  const idle = points[0].total_seconds;
  const busy = (/** @type {string} */ name) => `${fmt.percent(name === 'first' ? held?.utilization : queueing(b).utilization)} busy`;
  const marks = held
    ? [
        { rate: 'first-rate', ttft: 'first-ttft', label: busy('first'), tone: 'inline-a' },
        { rate: 'rate', ttft: 'ttft', label: busy('this'), tone: 'inline-b' },
      ]
    : [{ rate: 'rate', ttft: 'ttft', label: busy('this'), tone: 'inline-b' }];
  /** @type {import('../charts/inline.js').CurveGroup} */
  const group = {
    kind: 'curve',
    title: 'Time to first token against the arrival rate',
    points,
    xTop: held?.xTop ?? saturation,
    yTop: held?.yTop ?? niceCeil(10 * (idle ?? 0)),
    saturationText: `saturation ${fmt.rate(saturation)}`,
    marks,
  };
  return { groups: [group], held: { points, xTop: group.xTop, yTop: group.yTop, utilization: queueing(b).utilization } };
}
