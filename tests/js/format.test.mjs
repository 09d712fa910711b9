// The page's thousands-separated numbers (web/src/format.js groupedDecimal) are written without
// Intl, whose first use costs a phone tens of milliseconds; they must still read exactly as
// `Intl.NumberFormat('en-US', {maximumFractionDigits: 12})` writes them. Node's Intl (full ICU,
// the same library Chromium's V8 uses) is the independent reference here.
import { test } from "node:test";
import assert from "node:assert/strict";
import { count, groupedDecimal, number } from "../../web/src/format.js";
import * as fmt from "../../web/src/format.js";

const reference = new Intl.NumberFormat("en-US", { maximumFractionDigits: 12 });

test("hand-checked cases: grouping, fraction places, rounding at the 12th place, sign", () => {
  // Each expected text is written out from the rule: commas every three whole digits, at most
  // 12 digits after the point, the 13th rounds half away from zero, trailing zeros dropped.
  const cases = [
    [0, "0"],
    [-0, "-0"],
    [999, "999"],
    [1000, "1,000"],
    [2098176, "2,098,176"],
    [-1234.5, "-1,234.5"],
    [0.625, "0.625"],
    [1e-7, "0.0000001"], // String(1e-7) is "1e-7": no exponent form here
    [1e21, "1,000,000,000,000,000,000,000"], // String(1e21) is "1e+21"
    [5e-13, "0.000000000001"], // 13th place 5: rounds up to the 12th
    [4.9e-13, "0"], // 13th place 4: rounds down
    [-1e-13, "-0"], // a negative value rounded to zero keeps its sign
    [0.9999999999995, "1"], // the carry crosses the point
    [1.2345678901234, "1.234567890123"],
  ];
  for (const [value, text] of cases) assert.equal(groupedDecimal(value), text, String(value));
});

test("the same text as Intl for integers, the page's rounded figures and tiny values", () => {
  const values = [];
  // Integers of every length up to past 2^53 (Intl writes their shortest digits, then zeros).
  for (let exponent = 0; exponent <= 300; exponent += 1) {
    for (const lead of [1, 2.5, 9.99, 1.152921504606847]) values.push(Math.round(lead * 10 ** exponent));
  }
  // What number(value, digits) hands over: 1–4 significant digits at every scale the engine
  // reports (1e-15 … 1e15), both signs, including the 12th/13th fraction place boundary.
  let seed = 12345;
  const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
  for (let i = 0; i < 20000; i += 1) {
    const digits = 1 + (i % 4);
    const magnitude = 10 ** (Math.floor(random() * 31) - 15);
    const value = Number((random() * 10 * magnitude).toPrecision(digits));
    values.push(value, -value);
  }
  for (let k = 1; k <= 9; k += 1) values.push(k * 1e-13, k * 1e-12, 0.5e-12 + k * 1e-15, 9.9999999999995 * 10 ** -k);
  for (const value of values) assert.equal(groupedDecimal(value), reference.format(value), String(value));
});

test("number() and count() use it", () => {
  assert.equal(count(2098176.4), "2,098,176");
  assert.equal(number(1117.09, 3), "1,117"); // ≥ 10^3: rounded to an integer
  assert.equal(number(0.000123456, 3), "0.000123");
});

// Issue 20 item 5: the roofline's 0.1 FLOP/byte tick read "100m" (SI milli), which a reader
// takes for a hundred million; below 1 the tick is the plain decimal.
test('tick labels below 1 are plain decimals, not milli-prefixed', () => {
  assert.equal(fmt.tick(0.1), '0.1');
  assert.equal(fmt.tick(0.01), '0.01');
  assert.equal(fmt.tick(100), '100');
  assert.equal(fmt.tick(1e5), '100k');
});
