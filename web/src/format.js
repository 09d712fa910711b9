// @ts-check
// Number formatting for the page: SI prefixes, bytes in both GB and GiB, times, counts.
// Presentation only — every value formatted here comes from the engine. No DOM, so the browser
// tests import this file in Node and format the engine's numbers exactly as the page does.

/** A number the engine may leave out (null), or a value read from a field that may be absent. @typedef {number | null | undefined} MaybeNumber */
const SI_PREFIXES = new Map([
  [-9, 'n'],
  [-6, 'µ'],
  [-3, 'm'],
  [0, ''],
  [3, 'k'],
  [6, 'M'],
  [9, 'G'],
  [12, 'T'],
  [15, 'P'],
  [18, 'E'],
]);
const IEC_PREFIXES = ['', 'Ki', 'Mi', 'Gi', 'Ti', 'Pi', 'Ei'];

/**
 * Significant digits without trailing zeros: 2.50 → "2.5", 1117.09 → "1120" at 3 digits.
 * @param {number} value
 * @param {number} digits
 */
function significant(value, digits) {
  return String(Number(value.toPrecision(digits)));
}

/** Placeholder for a value the engine did not give (null, NaN, infinite). */
export const MISSING = '—';

/**
 * True when `value` is a finite number.
 * @param {unknown} value
 * @returns {value is number}
 */
export function isNumber(value) {
  return typeof value === 'number' && Number.isFinite(value);
}

/**
 * `value` with an SI prefix and `unit`, e.g. si(2.97e13, 'FLOP') → "29.7 TFLOP",
 * si(0.0347, 's') → "34.7 ms". Three significant digits unless told otherwise.
 * @param {MaybeNumber} value
 * @param {string} unit
 */
export function si(value, unit, digits = 3) {
  if (!isNumber(value)) return MISSING;
  if (value === 0) return `0 ${unit}`.trim();
  let exponent = Math.floor(Math.log10(Math.abs(value)) / 3) * 3;
  exponent = Math.min(18, Math.max(-9, exponent));
  let mantissa = Number((value / 10 ** exponent).toPrecision(digits));
  // 999.96 k rounds to 1000 k: show it as 1 M instead.
  if (Math.abs(mantissa) >= 1000 && exponent < 18) {
    exponent += 3;
    mantissa = Number((value / 10 ** exponent).toPrecision(digits));
  }
  return `${String(mantissa)} ${SI_PREFIXES.get(exponent)}${unit}`.trim();
}

/**
 * Bytes with a binary prefix: iec(268435456) → "256 MiB".
 * @param {MaybeNumber} bytes
 */
export function iec(bytes, digits = 3) {
  if (!isNumber(bytes)) return MISSING;
  let index = 0;
  let value = bytes;
  while (Math.abs(value) >= 1024 && index < IEC_PREFIXES.length - 1) {
    value /= 1024;
    index += 1;
  }
  if (Math.abs(Number(value.toPrecision(digits))) >= 1024 && index < IEC_PREFIXES.length - 1) {
    value /= 1024;
    index += 1;
  }
  return `${significant(value, digits)} ${IEC_PREFIXES[index]}B`;
}

/**
 * Bytes in decimal and binary units, both labelled: "268 MB (256 MiB)".
 * @param {MaybeNumber} value
 */
export function bytes(value) {
  if (!isNumber(value)) return MISSING;
  if (value === 0) return '0 B';
  return `${si(value, 'B')} (${iec(value)})`;
}

/**
 * A duration: "34.7 ms", "4 µs".
 * @param {MaybeNumber} value
 */
export function seconds(value) {
  return si(value, 's');
}

/**
 * Floating-point operations: "29.7 TFLOP".
 * @param {MaybeNumber} value
 */
export function flops(value) {
  return si(value, 'FLOP');
}

/**
 * Arithmetic throughput: "989 TFLOP/s".
 * @param {MaybeNumber} value
 */
export function flopRate(value) {
  return si(value, 'FLOP/s');
}

/**
 * Bandwidth: "3.35 TB/s".
 * @param {MaybeNumber} value
 */
export function byteRate(value) {
  return si(value, 'B/s');
}

/** The most digits after the decimal point a plain number shows (as Intl's maximumFractionDigits). */
const MAX_FRACTION_DIGITS = 12;

/**
 * `value` as en-US writes it, with thousands separators and at most MAX_FRACTION_DIGITS
 * fraction digits: exactly what `new Intl.NumberFormat('en-US', {maximumFractionDigits: 12})`
 * gives (tests/js/format.test.mjs holds it to that). Written out because the first Intl object
 * of a page loads ICU's locale data, which costs Chromium 55–220 ms on a phone-speed CPU (4×
 * slowed, docs/performance.md) in the middle of the explorer's first drawing. Like Intl, it
 * starts from the shortest decimal digits that read back as `value`, rounds half away from zero
 * and keeps the sign of a negative value that rounds to zero ("-0").
 * @param {number} value
 */
export function groupedDecimal(value) {
  if (!Number.isFinite(value)) return String(value);
  const [mantissa, exponentText] = Math.abs(value).toExponential().split('e');
  let digits = mantissa.replace('.', '');
  // value = 0.d1d2d3… × 10^point: `point` digits go before the decimal point.
  let point = Number(exponentText) + 1;
  // Digits past the last fraction place are dropped, rounding half away from zero.
  const kept = point + MAX_FRACTION_DIGITS;
  if (kept < digits.length) {
    const roundUp = kept >= 0 && digits[kept] >= '5';
    digits = digits.slice(0, Math.max(0, kept));
    if (roundUp) {
      // One more at the last kept digit, carried left: 0.9995 → 1.000 moves the point.
      const last = digits.search(/9*$/) - 1;
      if (last < 0) point += 1;
      digits = (last < 0 ? '1' : digits.slice(0, last) + String(Number(digits[last]) + 1)) + '0'.repeat(digits.length - last - 1);
    }
  }
  const padded = point > digits.length ? digits + '0'.repeat(point - digits.length) : digits;
  const whole = point > 0 ? padded.slice(0, point) : '0';
  const fraction = (point > 0 ? padded.slice(point) : '0'.repeat(-point) + padded).replace(/0+$/, '');
  const grouped = whole.replace(/\B(?=(\d{3})+$)/g, ',');
  const sign = value < 0 || Object.is(value, -0) ? '-' : '';
  return `${sign}${grouped}${fraction ? `.${fraction}` : ''}`;
}

/**
 * A plain number with at most `digits` significant digits and thousands separators.
 * @param {MaybeNumber} value
 */
export function number(value, digits = 3) {
  if (!isNumber(value)) return MISSING;
  if (Math.abs(value) >= 10 ** digits) return groupedDecimal(Math.round(value));
  return groupedDecimal(Number(value.toPrecision(digits)));
}

/**
 * An integer count with thousands separators: "2,098,176".
 * @param {MaybeNumber} value
 */
export function count(value) {
  if (!isNumber(value)) return MISSING;
  return groupedDecimal(Math.round(value));
}

/**
 * Arithmetic intensity: "1,117 FLOP/byte", "0.625 FLOP/byte".
 * @param {MaybeNumber} value
 */
export function intensity(value) {
  if (!isNumber(value)) return MISSING;
  return `${number(value, value >= 100 ? 4 : 3)} FLOP/byte`;
}

/**
 * Requests per second: "1,000 requests/s".
 * @param {MaybeNumber} value
 */
export function rate(value) {
  if (!isNumber(value)) return MISSING;
  return `${number(value, 4)} requests/s`;
}

/**
 * Parameter count in words: "8.03 billion".
 * @param {MaybeNumber} value
 */
export function parameters(value) {
  if (!isNumber(value)) return MISSING;
  if (value >= 1e12) return `${significant(value / 1e12, 3)} trillion`;
  if (value >= 1e9) return `${significant(value / 1e9, 3)} billion`;
  if (value >= 1e6) return `${significant(value / 1e6, 3)} million`;
  return count(value);
}

/**
 * A fraction as a percentage: 0.9416 → "94.2%".
 * @param {MaybeNumber} value
 */
export function percent(value) {
  if (!isNumber(value)) return MISSING;
  return `${significant(value * 100, 3)}%`;
}

/**
 * The engine's bound names as the page says them.
 * @type {Record<import('prefill-trace').Bound, string>}
 */
export const BOUND_LABELS = {
  compute: 'compute-bound',
  memory: 'memory-bound',
  overhead: 'launch-overhead-bound',
  interconnect: 'interconnect-bound',  // tensor parallelism's all-reduces
};

/**
 * A bound as the page says it; a step with no kernels has none (null).
 * @param {import('prefill-trace').Bound | null | undefined} name
 */
export function bound(name) {
    if (!name) return 'no kernels';
  return BOUND_LABELS[name] ?? String(name);
}

/**
 * Axis tick labels: compact SI without unit ("100k", "1T"); below 1 a plain decimal ("0.1",
 * "0.01"), since a bare "100m" on an axis of FLOP/byte reads as a hundred million (or metres).
 * @param {MaybeNumber} value
 */
export function tick(value) {
  if (!isNumber(value)) return '';
  if (value === 0) return '0';
  if (Math.abs(value) < 1 && Math.abs(value) >= 1e-4) return String(Number(value.toPrecision(3)));
  return si(value, '', 3).replace(' ', '');
}
