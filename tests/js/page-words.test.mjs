// Words the page builds from engine figures, checked against text written by hand here.
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { signedDifference } from '../../web/src/compare/compare.js';
import { promptWords } from '../../web/src/charts/decode.js';

const ms = (s) => `${Number((s * 1e3).toPrecision(3))} ms`;

test('a compare difference of ten times or more reads as a factor, not a huge percentage', () => {
  // 1 ms → 15,401 ms: +15,400 ms; the ratio 15,401 is a whole number past 3 digits, which the
  // page's number format writes in full (format.js: |v| ≥ 10^digits → rounded, grouped).
  assert.equal(signedDifference(0.001, 15.401, ms), '+15400 ms (15,401× A)');
  // 2 ms → 20 ms is exactly ten times: the factor form.
  assert.equal(signedDifference(0.002, 0.02, ms), '+18 ms (10× A)');
  // 2 ms → 3 ms: +1 ms, +50 % (under ten times: a percentage).
  assert.equal(signedDifference(0.002, 0.003, ms), '+1 ms (+50%)');
  // A fall stays a percentage: 20 ms → 1 ms is −19 ms, −95 %.
  assert.equal(signedDifference(0.02, 0.001, ms), '−19 ms (−95%)');
  assert.equal(signedDifference(0.02, 0.02, ms), 'no change');
});

test('the decode chart names the batch when the prefill totals cover several requests', () => {
  assert.equal(promptWords({ batch: 1, prompt_tokens: 2048 }), '2,048 tokens');
  assert.equal(promptWords({ batch: 16, prompt_tokens: 2048 }), '16 × 2,048 tokens');
});

test("an investigation's sentence names the batch when the prompt is one of several", async () => {
  const { promptOf } = await import('../../web/src/investigations/catalog.js');
  assert.equal(promptOf({ scenario: { batch: 1, prompt_tokens: 32 } }), '32 tokens');
  assert.equal(promptOf({ scenario: { batch: 8, prompt_tokens: 32 } }), '8 prompts of 32 tokens');
  assert.equal(promptOf({ scenario: { batch: 1, prompt_tokens: 1 } }), '1 token');
});
