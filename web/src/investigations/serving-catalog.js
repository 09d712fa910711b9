// The lesson's service-time claims as guided investigations (issue 30 item 1), read from the
// engine's serving simulation (docs/serving.md) instead of the single-request trace. Each entry
// has catalog.js's fields (id, claim, question, options, terms, verdict, read, next, picture),
// with `serving` in place of `scenarios`:
//
//   serving(base, {changed, traceOf}) → {state, runs, plans, traces}
//     state   the explorer's scenario the investigation shows (its long prompt)
//     runs    name → the `serving` object of one simulation of that scenario (simulateServing)
//     plans   name → {serving, devices}: a placement search of that scenario (planServing,
//             `prefill-trace plan`; optional)
//     traces  name → a scenario whose single-request trace the sentence also reads (optional)
//   `changed` is true for "Change one condition" (`next.label` says what it changes).
//
// verdict, read and picture get (null, reading), reading = {runs: name → report, plans: name →
// plan, traces: name → trace, state: the scenario shown}. As in catalog.js, every number in a sentence is a field of a report or trace the
// engine returned, or a quotient of two such fields named as one.

import * as fmt from '../format.js';
import { figure } from './catalog.js';

/** @typedef {import('./catalog.js').ServingReading} ServingReading */
/** @typedef {import('./catalog.js').Investigation<null, ServingReading>} ServingInvestigation */
/** @typedef {import('../scenario.js').ScenarioState} ScenarioState */
/** @typedef {import('prefill-trace').ServingReport} ServingReport */
/** An explicit arrival: [time (s), prompt tokens, output tokens]. @typedef {[number, number, number]} ArrivalRow */

/**
 * Eight chat requests (512-token prompts, 128-token answers) arriving 50 ms apart from 0 s (as
 * written, not i × 0.05: tests/browser/fixtures/serving-investigations/ holds the same rows for
 * the CLI).
 */
const CHAT = [0, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35].map((t) => /** @type {ArrivalRow} */ ([t, 512, 128]));
/** The long prompt arrives at 0.5 s, while every chat request decodes; it asks for one token. */
const LONG_AT = 0.5;
/** Explicit arrivals: the same requests under every scheduler, no sampling between them. */
const rowsWith = (/** @type {number} */ longPrompt) => [...CHAT, [LONG_AT, longPrompt, 1]];
/** What the explorer shows for a serving investigation: its long prompt, one request, no queue. */
/** The long prompt explorerState set (a number). */
const promptOf = (/** @type {ScenarioState} */ state) => /** @type {number} */ (state.prompt);
/** @type {(base: ScenarioState, prompt: number) => ScenarioState} */
const explorerState = (base, prompt) => ({ ...base, prompt, batch: 1, chunk: 0, rate: 0 });
const tokensOf = (/** @type {ScenarioState} */ state) => `${fmt.count(promptOf(state))} tokens`;
/** @type {(name: string, label: string, a?: boolean) => import('../charts/inline.js').PairRow} */
const row = (name, label, a = false) => ({ name, label, tone: a ? 'inline-a' : 'inline-b' });
const times = (/** @type {number} */ value) => `${fmt.number(value, 3)}×`;
/** @type {(summary: import('prefill-trace').ServingSummary | null, p: 'p50' | 'p99') => number | null} */
const seconds = (summary, p) => summary?.[p] ?? null;
const secondsText = (/** @type {number | null} */ value) => (value === null ? 'no figure' : fmt.seconds(value));

// --- A long prompt stalls everyone's next token ---------------------------------------------

/** @type {ServingInvestigation} */
const stall = {
  id: 'decode-stall',
  claim: 'A long prompt stalls everyone’s next token',
  question:
    'Eight chat requests are generating their answers when one 16,384-token prompt arrives. Prefill first runs ' +
    'that prompt whole before the next decode step; chunked prefill mixes it into the decode steps a piece at a ' +
    'time (at most 512 tokens a step, decodes included). What happens to the longest wait of a chat request between two of its tokens?',
  options: [
    'About the same: the long prompt costs the same work either way',
    'Prefill first: a wait of the whole prompt; chunked: one short step',
    'Chunked is worse: the pieces of the prompt delay more decode steps',
  ],
  terms: ['tpot', 'token-gap'],
  explorer: { part: 'under-load' },
  serving: (base, { changed }) => {
    const long = changed ? 32768 : 16384;
    const rows = rowsWith(long);
    return {
      state: explorerState(base, long),
      runs: {
        first: { policy: 'prefill-first', rows, timeline_points: 0 },
        chunked: { policy: 'chunked', rows, timeline_points: 0 },
      },
    };
  },
  verdict(_, { runs }) {
    const [first, chunked] = [seconds(runs.first.tbt_max_seconds, 'p50'), seconds(runs.chunked.tbt_max_seconds, 'p50')];
    if (first === null || chunked === null) return 0;
    return first >= 3 * chunked ? 1 : chunked >= 3 * first ? 2 : 0;
  },
  read(_, { runs, state }) {
    const { first, chunked } = runs;
    /** @type {(run: ServingReport, p: 'p50' | 'p99', name: string) => import('./catalog.js').Figure} */
    const gap = (run, p, name) => figure(name, seconds(run.tbt_max_seconds, p), secondsText(seconds(run.tbt_max_seconds, p)));
    // null / null is NaN, shown as the missing figure (format.js).
    const ratio = /** @type {number} */ (seconds(first.tbt_max_seconds, 'p50')) / /** @type {number} */ (seconds(chunked.tbt_max_seconds, 'p50'));
    return [
      `When the ${fmt.count(promptOf(state))}-token prompt arrives, prefill first runs it whole: the median chat request’s longest wait between two tokens is `,
      gap(first, 'p50', 'gap-p50-first'),
      ' (99th percentile ',
      gap(first, 'p99', 'gap-p99-first'),
      '), against ',
      gap(chunked, 'p50', 'gap-p50-chunked'),
      ' (99th percentile ',
      gap(chunked, 'p99', 'gap-p99-chunked'),
      ') with chunked prefill, ',
      figure('gap-ratio', ratio, times(ratio)),
      ' as long. The time per output token hides the stall, spread over the answer’s 127 gaps: its median is ',
      figure('tpot-p50-first', seconds(first.tpot_seconds, 'p50'), secondsText(seconds(first.tpot_seconds, 'p50'))),
      ' against ',
      figure('tpot-p50-chunked', seconds(chunked.tpot_seconds, 'p50'), secondsText(seconds(chunked.tpot_seconds, 'p50'))),
      '.',
    ];
  },
  // The changed reading draws the first one's bars above its own, on one axis (`held`: the
  // first reading's prompt, and that its figures are there, named first-…).
  picture: (_, { state }, { held = null } = {}) => {
    /** @type {(name: string, title: string) => import('../charts/inline.js').PairGroup} */
    const pair = (name, title) => ({
      scale: 'linear',
      unit: 'seconds',
      title,
      rows: [
        ...(held ? [row(`first-${name}-first`, `${held.prompt}: prefill first`, true), row(`first-${name}-chunked`, `${held.prompt}: chunked`)] : []),
        row(`${name}-first`, held ? `${tokensOf(state)}: prefill first` : 'Prefill first', true),
        row(`${name}-chunked`, held ? `${tokensOf(state)}: chunked` : 'Chunked prefill'),
      ],
    });
    return {
      groups: [pair('gap-p50', 'Longest wait between two tokens (median chat request)'), pair('tpot-p50', 'Time per output token (median)')],
      held: { prompt: tokensOf(state) },
    };
  },
  next: { label: 'double the long prompt to 32,768 tokens: does the chunked wait grow with it?' },
};

// --- Chunking limits a prompt's footprint ---------------------------------------------------

/** @type {ServingInvestigation} */
const footprint = {
  id: 'chunk-footprint',
  claim: 'Chunking limits one prompt’s footprint',
  question:
    'The same 16,384-token prompt arrives among eight decoding chat requests, now scheduled in steps of at most ' +
    '2,048 tokens each (chat decodes included). What bounds a chat request’s longest wait for its next token, and ' +
    'what does chunking cost?',
  options: [
    'Still the whole prompt: its chunks run one right after another',
    'The longest single step; every chunk reads the weights again',
    'The average step; chunks cost no extra memory traffic at all',
  ],
  terms: ['token-gap', 'hbm'],
  explorer: { part: 'under-load' },
  serving: (base, { changed }) => {
    const budget = changed ? 512 : 2048;
    const rows = rowsWith(16384);
    return {
      state: explorerState(base, 16384),
      runs: {
        first: { policy: 'prefill-first', rows, timeline_points: 0 },
        chunked: { policy: 'chunked', rows, token_budget: budget, timeline_points: 0 },
      },
      // The prompt alone in chunks of the token budget: the weight and K/V traffic chunking adds.
      traces: { chunked: { ...explorerState(base, 16384), chunk: budget } },
    };
  },
  verdict(_, { runs, traces }) {
    if (runs.chunked.longest_iteration_seconds >= 0.5 * runs.first.longest_iteration_seconds) return 0;
    return traces.chunked.steps[3].facts.chunking.extra_weight_bytes > 0 ? 1 : 2;
  },
  read(_, { runs, traces }) {
    const { first, chunked } = runs;
    const chunking = traces.chunked.steps[3].facts.chunking;
    const average = traces.chunked.totals.seconds / chunking.chunks;
    /** @type {(run: ServingReport, name: string) => import('./catalog.js').Figure} */
    const longest = (run, name) => figure(name, run.longest_iteration_seconds, fmt.seconds(run.longest_iteration_seconds));
    /** @type {(run: ServingReport, name: string) => import('./catalog.js').Figure} */
    const worst = (run, name) => figure(name, seconds(run.tbt_max_seconds, 'p99'), secondsText(seconds(run.tbt_max_seconds, 'p99')));
    return [
      'Unchunked, the longest step is the whole prompt’s prefill, ',
      longest(first, 'longest-first'),
      ', and a chat request waits up to ',
      worst(first, 'worst-first'),
      ' for a token (99th percentile). In steps of at most ',
      figure('budget', chunked.serving.token_budget, `${fmt.count(chunked.serving.token_budget)} tokens`),
      ', the longest step takes ',
      longest(chunked, 'longest-chunked'),
      ' — not the average chunk’s ',
      figure('average-chunk', average, fmt.seconds(average)),
      ': a late chunk’s attention reads more context, and a step carries the chat requests’ decodes too — and it bounds the wait: at most ',
      worst(chunked, 'worst-chunked'),
      '. The price: each of the prompt’s ',
      figure('chunks', chunking.chunks, fmt.count(chunking.chunks)),
      ' chunks reads the weights, ',
      figure('extra-weight-bytes', chunking.extra_weight_bytes, fmt.bytes(chunking.extra_weight_bytes)),
      ' more weight traffic than one pass, and they re-read ',
      figure('kv-reread-bytes', chunking.kv_reread_bytes, fmt.bytes(chunking.kv_reread_bytes)),
      ' of earlier chunks’ K/V.',
    ];
  },
  // The changed reading adds the first one's chunked bars (named first-…) on the same axis.
  picture: (_, { runs }, { held = null } = {}) => {
    const budget = (/** @type {number} */ n) => `${fmt.count(n)}-token steps`;
    const here = budget(runs.chunked.serving.token_budget);
    return {
      groups: [
        {
          scale: 'linear',
          unit: 'seconds',
          title: 'Longest step, and the longest wait it allows',
          rows: [
            row('longest-first', 'Unchunked: longest step', true),
            row('worst-first', 'Unchunked: longest wait (p99)', true),
            ...(held ? [row('first-longest-chunked', `${held.budget}: longest step`), row('first-worst-chunked', `${held.budget}: longest wait (p99)`)] : []),
            row('longest-chunked', `${held ? here : 'Chunked'}: longest step`),
            row('worst-chunked', `${held ? here : 'Chunked'}: longest wait (p99)`),
          ],
        },
      ],
      held: { budget: here },
    };
  },
  next: { label: 'steps of at most 512 tokens: a shorter longest step, more weight traffic' },
};

// --- DistServe: disaggregation and goodput ---------------------------------------------------

/** @type {[ServingReport['policy'], string][]} */
/** @typedef {import('prefill-trace').PlanDocument} PlanDocument */
/** @typedef {import('prefill-trace').PlanCandidate} PlanCandidate */
/** @typedef {'tight' | 'loose'} Slo */
/** @type {[ServingReport['policy'], string][]} */
const POLICIES = [
  ['prefill-first', 'prefill first'],
  ['chunked', 'chunked prefill'],
  ['disaggregated', 'disaggregated prefill and decode'],
];
/** @type {Record<ServingReport['policy'], string>} */
const SHORT = { 'prefill-first': 'Prefill first', chunked: 'Chunked', disaggregated: 'Disaggregated' };
const SLOS = {
  tight: { ttft_slo: 2, tpot_slo: 0.01 },
  loose: { ttft_slo: 2, tpot_slo: 0.05 },
};
/** Requests per goodput search: enough that a burst cannot meet the objectives at any rate (docs/serving.md). */
const GOODPUT_REQUESTS = 200;
/** The search's final bracket, relative: 5% keeps it to a few runs per scheduler. */
const GOODPUT_TOLERANCE = 0.05;
/** The share of requests that must meet both objectives (the engine's default, written out for the sentence). */
const ATTAINMENT = 0.9;
/**
 * The placements the sentence compares, found among plan's candidates: one device per instance,
 * colocated on one instance, disaggregated on one decode instance and `prefill` prefill
 * instances (1, or 2 in the changed condition: DistServe's sizing of each phase).
 */
const compared = (/** @type {number} */ prefill) => ({
  'prefill-first': (/** @type {PlanCandidate} */ c) => c.prefill_instances === 1 && c.prefill_tensor_parallel === 1,
  chunked: (/** @type {PlanCandidate} */ c) => c.prefill_instances === 1 && c.prefill_tensor_parallel === 1,
  disaggregated: (/** @type {PlanCandidate} */ c) =>
    c.prefill_instances === prefill && c.decode_instances === 1 && c.prefill_tensor_parallel === 1 && c.decode_tensor_parallel === 1,
});

/**
 * Each compared policy's candidate of the `slo` plan: policy → candidate (undefined when plan found none).
 * @param {Record<string, PlanDocument>} plans
 * @param {Slo} slo
 * @returns {Record<string, PlanCandidate | undefined>}
 */
function placements(plans, slo) {
  const plan = plans[slo];
  const match = compared(plan.devices === 3 ? 2 : 1);
  return Object.fromEntries(POLICIES.map(([id]) => [id, plan.candidates.find((c) => c.policy === id && match[id](c))]));
}

/**
 * The compared scheduler with the most goodput per device under `slo`.
 * @param {Record<string, PlanDocument>} plans
 * @param {Slo} slo
 */
function winner(plans, slo) {
  const found = placements(plans, slo);
  /** @type {{id: ServingReport['policy'], value: number} | null} */
  let best = null;
  for (const [id] of POLICIES) {
    const value = found[id]?.goodput_per_device ?? 0;
    if (best === null || value > best.value) best = { id, value };
  }
  return /** @type {{id: ServingReport['policy']}} */ (best).id; // POLICIES is not empty
}

/** Why the winner wins, in the words of the paper whose case it is. */
/** @type {Record<ServingReport['policy'], string>} */
const WHY = {
  disaggregated: ' — no prompt delays a decode step there: DistServe’s case',
  chunked: ' — a chunk delays decodes only a little, and disaggregation idles a device per phase: Sarathi-Serve’s case',
  'prefill-first': ' — this objective tolerates whole-prompt stalls',
};

const count = (/** @type {number} */ n, /** @type {string} */ word) => `${fmt.count(n)} ${n === 1 ? word : `${word}s`}`;
/** A goodput per device in the sentence, whose lead names the unit once. */
const perDevice = (/** @type {string} */ name, /** @type {number | null} */ value) =>
  figure(name, value, value !== null && value > 0 ? fmt.number(value, 4) : 'none found');

/** A placement in words: "chunked prefill, 1 instance of 2 devices". @param {PlanCandidate} c */
function placementWords(c) {
  const words = POLICIES.find(([id]) => id === c.policy)?.[1] ?? c.policy;
  if (c.policy !== 'disaggregated') return `${words}, ${count(c.prefill_instances, 'instance')} of ${count(c.prefill_tensor_parallel, 'device')}`;
  return `${words}, ${count(c.prefill_instances, 'prefill instance')} of ${count(c.prefill_tensor_parallel, 'device')} and ${count(
    c.decode_instances,
    'decode instance',
  )} of ${count(c.decode_tensor_parallel, 'device')}`;
}
/** Whether two candidates are the same placement. @param {PlanCandidate | null} a @param {PlanCandidate | null} b */
const samePlacement = (a, b) => a !== null && b !== null && placementWords(a) === placementWords(b);

/** @type {ServingInvestigation} */
const distserve = {
  id: 'distserve',
  claim: 'DistServe: disaggregation and goodput, per device',
  question:
    'DistServe (Zhong et al., OSDI 2024) runs prefill and decode on separate devices, so a prompt never delays a ' +
    'decode step; Sarathi-Serve (Agrawal et al., OSDI 2024) keeps both on one device and chunks the prompts. For ' +
    '8,192-token prompts and 256-token answers, one device per instance, which serves the most requests per second per device within the ' +
    'objectives — under a tight and under a loose time per output token?',
  options: [
    'Disaggregated under both: it never mixes the two phases',
    'Disaggregated when tight, chunked prefill when it is loose',
    'Chunked prefill under both: disaggregation needs two devices',
  ],
  terms: ['goodput', 'slo', 'tpot'],
  explorer: { part: 'under-load' },
  plans: true,
  // One placement search per objective (`prefill-trace plan`): every scheduler × instance count ×
  // tensor parallelism within the devices the compared placements use (2; 3 with two prefill
  // instances), each candidate one goodput search. The sentence compares the one-device-per-
  // instance placements and names the search's best of all.
  serving: (base, { changed, traceOf }) => {
    const state = explorerState(base, 8192);
    // The searches start at half the prefill's saturation rate (the trace's λ at ρ = 1), as "Under load" does.
    const saturation = traceOf(state)?.steps[4].facts.saturation_arrival_rate;
    const rate = saturation !== undefined && saturation > 0 ? Number((saturation * 0.5).toPrecision(3)) : 1;
    /** @type {Record<string, {serving: object, devices: number}>} */
    const plans = {};
    for (const [slo, objectives] of Object.entries(SLOS)) {
      plans[slo] = {
        devices: changed ? 3 : 2,
        serving: {
          rate,
          requests: GOODPUT_REQUESTS,
          prompt: 8192,
          output: 256,
          ...objectives,
          attainment: ATTAINMENT,
          goodput_tolerance: GOODPUT_TOLERANCE,
          timeline_points: 0,
        },
      };
    }
    return { state, runs: {}, plans };
  },
  verdict(_, { plans }) {
    if (winner(plans, 'tight') !== 'disaggregated') return 2;
    return winner(plans, 'loose') === 'disaggregated' ? 0 : 1;
  },
  // The key figures and the source in the sentence, shortly; how they were found folds under it
  // (details). Each goodput is per device, the devices beside it.
  read(_, { plans, state }) {
    /** @type {(slo: Slo) => import('./catalog.js').SentencePart[]} */
    const clause = (slo) => {
      const found = placements(plans, slo);
      /** @type {(id: ServingReport['policy']) => import('./catalog.js').SentencePart[]} */
      const value = (id) => [`${SHORT[id].toLowerCase()} `, perDevice(`${slo}-${id}`, found[id]?.goodput_per_device ?? null)];
      const on = (/** @type {ServingReport['policy']} */ id) => (found[id] ? ` on ${found[id].devices}` : ' (no placement)');
      // The colocated pair share their device count in the usual case: said once.
      const pair = found['prefill-first'] && found.chunked && found['prefill-first'].devices === found.chunked.devices;
      return [
        `${slo === 'tight' ? 'Tight' : 'Loose'} (`,
        figure(`${slo}-tpot-slo`, SLOS[slo].tpot_slo, fmt.seconds(SLOS[slo].tpot_slo)),
        ' a token): ',
        value('prefill-first'),
        pair ? ' and ' : [on('prefill-first'), ', '],
        value('chunked'),
        pair ? `${on('chunked')} ${found.chunked?.devices === 1 ? 'device' : 'devices'} each` : on('chunked'),
        ', ',
        value('disaggregated'),
        on('disaggregated'),
        WHY[winner(plans, slo)],
        '. ',
      ];
    };
    const [tight, loose] = [plans.tight.best, plans.loose.best];
    /** @type {(slo: Slo) => import('./catalog.js').SentencePart[]} */
    const best = (slo) => {
      const c = plans[slo].best;
      return c ? [perDevice(`${slo}-best`, c.goodput_per_device), ` (${slo})`] : [`none (${slo})`];
    };
    return [
      `Goodput per device in requests/s (first token within ${fmt.seconds(SLOS.tight.ttft_slo)}), ${fmt.count(promptOf(state))}-token prompts, 256-token answers. `,
      clause('tight'),
      clause('loose'),
      `Best of all ${plans.tight.devices}-device placements: `,
      samePlacement(tight, loose)
        ? [placementWords(/** @type {PlanCandidate} */ (tight)), ', ', best('tight'), ' and ', best('loose'), '. ']
        : [tight ? `${placementWords(tight)}, ` : '', best('tight'), '; ', loose ? `${placementWords(loose)}, ` : '', best('loose'), '. '],
      'Source: prefill-trace plan, the engine’s placement search.',
    ];
  },
  details(_, { plans }) {
    const devices = count(plans.tight.devices, 'device');
    const split = [plans.tight.best, plans.loose.best].some((c) => c && c.policy !== 'disaggregated' && c.prefill_tensor_parallel > 1);
    return (
      `Each figure is a placement’s goodput — the highest arrival rate at which at least ${fmt.percent(ATTAINMENT)} of ${fmt.count(
        GOODPUT_REQUESTS,
      )} requests meet both objectives, found by the engine’s goodput search — divided by the devices it uses. ` +
      `The placement search (prefill-trace plan --devices ${plans.tight.devices}; planServing in the engine) tries every scheduler, instance count and tensor parallelism within ${devices}; ` +
      `the sentence compares one device per instance (disaggregated: ${count(plans.tight.devices === 3 ? 2 : 1, 'prefill instance')} and 1 decode instance) and names the search’s best.` +
      (split ? ' Tensor parallelism splits each step’s weight reads over the devices, so every step is shorter: that is why the best placement splits the model.' : '') +
      // The validation row (tests/validation/serving/published.py, distserve-ratio-opt-13b): the
      // same engine on DistServe's own setting gives its sign, so the answer here is the workload's.
      ' On DistServe’s own chatbot setting (OPT-13B on A100s, its ShareGPT requests with short answers, the 2023 vLLM as the colocated baseline) the same engine does find disaggregation ahead per device, as DistServe measured (the project’s docs/serving.md, “Published results”): which placement wins depends on the prompts, the answers and the objectives.'
    );
  },
  // Both objectives on one axis: the tight one's bars are read against the loose one's. The
  // changed reading adds the first one's disaggregated bar (named first-…) above its own.
  picture: (_, { plans }, { held = null } = {}) => {
    const devices = (/** @type {number} */ n) => count(n, 'device');
    const found = { tight: placements(plans, 'tight'), loose: placements(plans, 'loose') };
    const values = Object.values(found).flatMap((f) => Object.values(f).map((c) => c?.goodput_per_device ?? 0));
    const top = Math.max(...values, ...['tight', 'loose'].map((slo) => plans[slo].best?.goodput_per_device ?? 0), held?.top ?? 0);
    /** @type {(slo: Slo) => import('../charts/inline.js').PairGroup} */
    const group = (slo) => ({
      scale: 'linear',
      title: `Goodput per device, ${slo} objective (requests/s; prefill-trace plan)`,
      top,
      // Short labels with the device count (the sentence has the long names): a phone's width.
      rows: [
        ...POLICIES.flatMap(([id]) => [
          ...(held && id === 'disaggregated' ? [row(`first-${slo}-${id}`, `${SHORT[id]} (${held.devices})`)] : []),
          row(`${slo}-${id}`, `${SHORT[id]} (${devices(found[slo][id]?.devices ?? 0)})`, id !== 'disaggregated'),
        ]),
        ...(plans[slo].best ? [row(`${slo}-best`, `Best placement (${devices(plans[slo].best.devices)})`)] : []),
      ],
    });
    return { groups: [group('tight'), group('loose')], held: { top, devices: devices(found.tight.disaggregated?.devices ?? 0) } };
  },
  next: { label: 'two prefill devices for each decode device (disaggregated: 3 devices), as DistServe sizes each phase' },
};

export const SERVING_INVESTIGATIONS = Object.freeze([stall, footprint, distserve]);
