// Plain words for the terms the lesson depends on: each is a <dfn> where the explorer first
// uses it, with a button that shows its definition in an aside right after it (and hides it
// again). Nothing is shown on hover alone: a tap, a click or Enter opens it, so it works the
// same with a finger, a mouse, a keyboard and a screen reader (aria-expanded on the button).

import { h } from '../dom.js';

export const TERMS = Object.freeze({
  'arithmetic-intensity': {
    words: 'arithmetic intensity',
    meaning:
      'Floating-point operations done per byte moved to or from the accelerator’s memory (FLOP/byte). ' +
      'The more arithmetic each loaded byte feeds, the higher it is.',
  },
  'ridge-point': {
    words: 'ridge point',
    meaning:
      'The intensity at which the accelerator’s arithmetic peak P and its memory bandwidth β take equal time (P/β, ' +
      'about 295 FLOP/byte for an H100 in bf16). Below it a kernel waits on memory; above it, on arithmetic.',
  },
  'compute-bound': {
    words: 'compute-bound',
    meaning: 'Limited by arithmetic: the kernel would finish sooner only with more FLOP per second.',
  },
  'memory-bound': {
    words: 'memory-bound',
    meaning: 'Limited by memory traffic: the arithmetic units wait for bytes to arrive from HBM.',
  },
  'overhead-bound': {
    words: 'overhead-bound',
    meaning:
      'Limited by fixed costs per kernel — launching it from the host — rather than by its work; typical of very short prompts.',
  },
  hbm: {
    words: 'HBM',
    meaning:
      'High-bandwidth memory: the accelerator’s main memory (80 GB on an H100), holding the weights, the KV cache and ' +
      'activations. Fast, but far slower than the on-chip memory next to the arithmetic units.',
  },
  ttft: {
    words: 'TTFT',
    meaning: 'Time to first token: from a request’s arrival to its first output token — waiting in the queue, the prefill itself, and delivery.',
  },
  tpot: {
    words: 'TPOT',
    meaning: 'Time per output token: the gap between successive generated tokens once decoding has started.',
  },
  'token-gap': {
    words: 'wait between two tokens',
    meaning:
      'The time from one generated token of a request to its next. Its longest value over an answer is the stall a ' +
      'reader sees; the time per output token averages it away.',
  },
  slo: {
    words: 'objective (SLO)',
    meaning:
      'A service-level objective: a limit a request’s time to first token or time per output token must stay within to count as served well.',
  },
  goodput: {
    words: 'goodput',
    meaning:
      'The highest arrival rate at which a target share of requests (here 90%) meets every objective. Per device it is that rate ' +
      'divided by the devices serving it, so deployments of different sizes compare on equal hardware (DistServe’s measure).',
  },
  'kv-cache': {
    words: 'KV cache',
    meaning:
      'The keys and values of every token seen so far, for every layer, kept in HBM so that decode does not recompute them. ' +
      'Prefill writes it for the whole prompt.',
  },
  'tensor-parallel': {
    words: 'tensor parallel',
    meaning:
      'Each layer’s weight matrices split across several devices, each doing its share; the partial results are summed ' +
      'across devices (an all-reduce) after the split layers.',
  },
});

let made = 0;

/**
 * The term `key` of TERMS as a <dfn> holding a toggle, and its definition as an aside after
 * it (hidden until asked for); `text` overrides the words shown.
 * @param {keyof typeof TERMS} key
 * @param {string} [text]
 */
export function term(key, text = TERMS[key].words) {
  made += 1;
  const id = `term-${key}-${made}`;
  const definition = h('span', { class: 'term-definition', id, role: 'note', hidden: true }, TERMS[key].meaning);
  const toggle = h('button', { type: 'button', class: 'term-toggle', 'aria-expanded': 'false', 'aria-controls': id }, text);
  toggle.addEventListener('click', () => {
    const open = definition.hidden;
    definition.hidden = !open;
    toggle.setAttribute('aria-expanded', String(open));
  });
  return [h('dfn', { class: 'term', 'data-term': key }, toggle), definition];
}

/** "Words used here: …", every term once, for the head of the explorer. */
export function glossaryLine() {
  return termsLine(/** @type {(keyof typeof TERMS)[]} */ (Object.keys(TERMS)), 'glossary-line', ' (select one for its meaning)');
}

/**
 * "Words used here: a, b and c.", each a term() with its definition in place, in a <p> of
 * class `className` (a guided investigation's own words, beside its question).
 * @param {(keyof typeof TERMS)[]} keys
 * @param {string} className
 * @param {string} [hint]
 */
export function termsLine(keys, className, hint = '') {
  /** @type {(string | HTMLElement[])[]} */
  const parts = [];
  keys.forEach((key, i) => {
    if (i > 0) parts.push(i === keys.length - 1 ? ' and ' : ', ');
    parts.push(term(key));
  });
  return h('p', { class: className }, h('span', { class: 'label' }, 'Words used here'), `${hint}: `, parts, '.');
}
