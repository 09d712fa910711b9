// The lesson file as bytes: its integrity against the SHA-256 prefix in its published name, and
// its decoding to the text the engine validates. No DOM, so Node can import it too.
//
// A published lesson file is named `<id>-<first 16 hex digits of the SHA-256 of its bytes>.json`
// (e.g. prefill-resource-trace-a76d037833bd69f7.json). When the address the page loads carries
// such a prefix, the bytes are hashed with Web Crypto before anything is decoded or shown, and
// a mismatch replaces the lesson with an error. An address without the prefix (a `?lesson=` or
// `lesson-src` naming some other same-origin file) has nothing to compare with and is not
// checked; the engine still validates it like any lesson.

/** `-<16 lowercase hex>.json` at the end of the file name: the published name's hash prefix. */
const HASHED_NAME = /-([0-9a-f]{16})\.json$/;

/**
 * The SHA-256 prefix a lesson address claims, or null when its file name carries none.
 * @param {URL} url
 */
export function claimedHashPrefix(url) {
  const name = url.pathname.slice(url.pathname.lastIndexOf('/') + 1);
  return HASHED_NAME.exec(name)?.[1] ?? null;
}

/** True when this document can hash (Web Crypto exists only in secure contexts). */
export function canVerify() {
  return Boolean(globalThis.crypto?.subtle?.digest);
}

/**
 * Lowercase hex SHA-256 of `bytes` (an ArrayBuffer), by Web Crypto.
 * @param {BufferSource} bytes
 */
export async function sha256OfBytes(bytes) {
  const digest = await globalThis.crypto.subtle.digest('SHA-256', bytes);
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * Compares the bytes with the prefix in their published name.
 * @returns {Promise<{status: 'verified'} | {status: 'mismatch', actual: string, expected: string}
 *   | {status: 'unchecked', reason: string} | {status: 'not-applicable'}>}
 * @param {URL} url
 * @param {BufferSource} bytes
 */
export async function checkIntegrity(url, bytes) {
  const expected = claimedHashPrefix(url);
  // No prefix in the name (e.g. a `?lesson=` file): nothing to check against, by design.
  if (!expected) return { status: 'not-applicable' };
  if (!canVerify()) {
    return { status: 'unchecked', reason: 'Web Crypto is unavailable here (the page is not in a secure context)' };
  }
  let actual;
  try {
    actual = (await sha256OfBytes(bytes)).slice(0, expected.length);
  } catch (error) {
    return { status: 'unchecked', reason: `hashing failed: ${error instanceof Error ? error.message : String(error)}` };
  }
  return actual === expected ? { status: 'verified' } : { status: 'mismatch', actual, expected };
}

/**
 * Where the UTF-8 in `bytes` first goes wrong, as the engine's JSON parser counts it: the
 * 1-based position just after the byte it stopped on (bytes.length + 1 for a sequence cut off
 * by the end of the file). -1 when every sequence is well formed (RFC 3629: no overlong forms,
 * no surrogates, nothing above U+10FFFF).
 * @param {ArrayBuffer | Uint8Array} bytes
 */
export function firstInvalidUtf8(bytes) {
  const b = bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes);
  let i = 0;
  while (i < b.length) {
    const lead = b[i];
    if (lead < 0x80) {
      i += 1;
      continue;
    }
    let need;
    let lo = 0x80;
    let hi = 0xbf;
    if (lead >= 0xc2 && lead <= 0xdf) need = 1;
    else if (lead >= 0xe0 && lead <= 0xef) {
      need = 2;
      if (lead === 0xe0) lo = 0xa0;
      if (lead === 0xed) hi = 0x9f;
    } else if (lead >= 0xf0 && lead <= 0xf4) {
      need = 3;
      if (lead === 0xf0) lo = 0x90;
      if (lead === 0xf4) hi = 0x8f;
    } else {
      return i + 1;
    }
    for (let k = 1; k <= need; k += 1) {
      const j = i + k;
      if (j >= b.length) return b.length + 1;
      const min = k === 1 ? lo : 0x80;
      const max = k === 1 ? hi : 0xbf;
      if (b[j] < min || b[j] > max) return j + 1;
    }
    i += need + 1;
  }
  return -1;
}

/**
 * The text of a lesson file, decoded without changing what the engine sees: a byte-order mark
 * is kept (the engine refuses it by name), and ill-formed UTF-8 is reported in the engine's own
 * words and position instead of being replaced by U+FFFD (fetch's text() does both silently).
 * @returns {{ok: true, text: string} | {ok: false, error: string}}
 * @param {ArrayBuffer | Uint8Array} bytes
 */
export function decodeLessonBytes(bytes) {
  try {
    return { ok: true, text: new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes) };
  } catch {
    const at = firstInvalidUtf8(bytes);
    return { ok: false, error: `byte ${at === -1 ? 0 : at}: invalid JSON (ill-formed UTF-8 byte)` };
  }
}
