// @ts-check
// What the element fetches, and the rules each fetch keeps:
//
// - The lesson file must be on the page's own origin (or, for the element's bundled lesson and
//   its companions, on the origin of the element's own files, e.g. a CDN), before and after
//   redirects: the address
//   is checked before the request, and the response's final URL (`response.url`, after every
//   redirect) before a byte of the body is read. (`mode: 'same-origin'` would stop such a
//   redirect one step earlier, but it cannot match the pages' `<link rel=preload crossorigin>`
//   of the lesson file, which would then be downloaded twice; a redirect to another origin
//   carries no credentials either way, `credentials: 'same-origin'`.)
// - It must arrive within a stated time (`timeoutMs`, headers and body together) and be no
//   larger than `maxBytes`: a Content-Length above the limit is refused before the body is
//   read, and a body without one is read chunk by chunk and cancelled at the limit.
// - Companion data (equations, lesson names) improves the page but is not required for it; it
//   keeps the same rules (origin, time, size), and when it cannot be had, the part it serves
//   says so and the rest is drawn.
// Every fetch follows the element's AbortSignal, so a removed element stops its downloads.

import { addressText, assetUrl, isBundledBase } from '../config.js';
import { checkIntegrity, decodeLessonBytes } from '../lesson-file.js';
import { BUNDLED_DATA } from './bundled-data.js';

/** @typedef {Awaited<ReturnType<typeof checkIntegrity>>} Integrity */

/** A failure of one part of the element: a title for the reader, a detail that says why. */
export class PartError extends Error {
  /**
   * @param {string} title
   * @param {string} detail
   */
  constructor(title, detail) {
    super(detail);
    this.title = title;
    /** The integrity check's result, on a file that failed it (set by lessonFromBytes). @type {Integrity | undefined} */
    this.integrity; // a declaration only: no property until set
  }
}

/** @param {unknown} error */
export function describe(error) {
  return error instanceof Error ? error.message : String(error);
}

const NOT_LOADED = 'The lesson could not be loaded';

/**
 * "1 MiB", "512 KiB", "300 bytes": a byte limit as a reader would say it.
 * @param {number} bytes
 */
function byteText(bytes) {
  if (bytes >= 1 << 20 && bytes % (1 << 20) === 0) return `${bytes / (1 << 20)} MiB`;
  if (bytes >= 1 << 10 && bytes % (1 << 10) === 0) return `${bytes / (1 << 10)} KiB`;
  return `${bytes} bytes`;
}

/**
 * A signal that aborts with `signal` or after `ms`, and a `done()` that clears the timer: the
 * timer must not outlive the fetch, or it keeps the element's signal (and through its
 * listeners, the element) alive until it fires (AbortSignal.timeout cannot be cleared).
 * @param {AbortSignal} signal
 * @param {number} ms
 */
function deadline(signal, ms) {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new DOMException('timed out', 'TimeoutError')), ms);
  const forward = () => controller.abort(signal.reason);
  signal.addEventListener('abort', forward, { once: true });
  return {
    signal: controller.signal,
    timedOut: () => controller.signal.aborted && !signal.aborted,
    done: () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', forward);
    },
  };
}

/**
 * Refuses an address on another origin than the page's or `ownOrigin` (before anything is
 * requested). `ownOrigin` is the origin of the element's own files, given only for them.
 * @param {URL} url
 * @param {string} [ownOrigin]
 */
export function assertSameOrigin(url, ownOrigin = window.location.origin) {
  if (url.origin !== window.location.origin && url.origin !== ownOrigin) {
    throw new PartError('This lesson cannot be shown', `The lesson address must be on this site; refused ${addressText(url.href)}.`);
  }
}

/**
 * Reads `response`'s body into one buffer, cancelling the read as soon as it passes `maxBytes`
 * (`tooLarge()` makes the error thrown then).
 * @param {Response} response
 * @param {number} maxBytes
 * @param {() => Error} tooLarge
 * @returns {Promise<ArrayBuffer>}
 */
async function readLimited(response, maxBytes, tooLarge) {
  const declared = Number(response.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > maxBytes) {
    await response.body?.cancel().catch(() => {});
    throw tooLarge();
  }
  if (!response.body) return new ArrayBuffer(0);
  const reader = response.body.getReader();
  /** @type {Uint8Array[]} */
  const chunks = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => {});
      throw tooLarge();
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(total);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  return bytes.buffer;
}

/**
 * The element's own data file `path` as app.js carries it (bundled-data.js), when `url` is that
 * file's address under `base` and `base` is app.js's own folder; else undefined (it is fetched).
 * @param {string} path
 * @param {URL} url
 * @param {URL} base
 * @returns {string | undefined}
 */
export function carriedData(path, url, base) {
  if (!BUNDLED_DATA || !isBundledBase(base) || url.href !== assetUrl(path, base).href) return undefined;
  return /** @type {Record<string, string>} */ (BUNDLED_DATA)[path];
}

/**
 * The bytes a `data:` URL holds (RFC 2397: base64, or percent-encoded text), read here rather
 * than fetched: a bundler may inline a small file so, and a strict CSP (`connect-src 'self'`,
 * `font-src 'self'`) refuses to load data: addresses.
 * @param {string} href
 * @returns {ArrayBuffer}
 */
export function dataUrlBytes(href) {
  const comma = href.indexOf(',');
  if (!href.startsWith('data:') || comma < 0) throw new TypeError('not a data: URL');
  const body = href.slice(comma + 1);
  if (/;base64$/i.test(href.slice(0, comma))) return Uint8Array.from(atob(decodeURIComponent(body)), (c) => c.charCodeAt(0)).buffer;
  return new TextEncoder().encode(decodeURIComponent(body)).buffer;
}

/**
 * The lesson file's text, after its integrity check (when its name carries a SHA-256 prefix)
 * and a decoding that keeps its bytes' meaning (see lesson-file.js).
 * @param {URL} url           same-origin address (assertSameOrigin)
 * @param {object} options
 * @param {number} options.timeoutMs  the longest the whole download may take
 * @param {number} options.maxBytes   the most bytes read before the file is refused
 * @param {AbortSignal} options.signal  the element's: aborted when it is removed or reloaded
 * @param {string} [options.ownOrigin]  the element's own files' origin, for its bundled lesson
 * @returns {Promise<{text: string, integrity: Integrity, finalUrl: URL}>}
 */
export async function fetchLesson(url, { timeoutMs, maxBytes, signal, ownOrigin = window.location.origin }) {
  assertSameOrigin(url, ownOrigin);
  const limit = deadline(signal, timeoutMs);
  const timedOut = () =>
    new PartError(NOT_LOADED, `${addressText(url.pathname)}: no complete answer within ${timeoutMs / 1000} s; the download was stopped.`);
  let bytes;
  let finalUrl;
  try {
    let response;
    try {
      response = await fetch(url, { credentials: 'same-origin', signal: limit.signal });
    } catch (error) {
      if (limit.timedOut()) throw timedOut();
      if (signal.aborted) throw error;
      throw new PartError(NOT_LOADED, `${addressText(url.pathname)}: ${describe(error)}`);
    }
    finalUrl = new URL(response.url || url.href);
    if (finalUrl.origin !== window.location.origin && finalUrl.origin !== ownOrigin) {
      await response.body?.cancel().catch(() => {});
      throw new PartError(
        'This lesson cannot be shown',
        `The lesson address must be on this site; ${addressText(url.pathname)} was redirected to ${addressText(finalUrl.href)}.`,
      );
    }
    if (!response.ok) {
      await response.body?.cancel().catch(() => {});
      throw new PartError(NOT_LOADED, `${addressText(url.pathname)}: HTTP ${response.status} ${response.statusText}`.trim());
    }
    bytes = await readLimited(
      response,
      maxBytes,
      () => new PartError(NOT_LOADED, `${addressText(url.pathname)}: the file is larger than the ${byteText(maxBytes)} a lesson may have.`),
    );
  } catch (error) {
    if (error instanceof PartError || signal.aborted) throw error;
    if (limit.timedOut()) throw timedOut();
    throw new PartError(NOT_LOADED, `${addressText(url.pathname)}: ${describe(error)}`);
  } finally {
    limit.done();
  }
  return { ...(await lessonFromBytes(url, bytes)), finalUrl };
}

/**
 * The lesson file's text from its bytes (fetched, or carried by app.js for `url`, its address
 * beside app.js): integrity-checked against the published name, then decoded.
 * @param {URL} url
 * @param {ArrayBuffer} bytes
 * @returns {Promise<{text: string, integrity: Integrity}>}
 */
export async function lessonFromBytes(url, bytes) {
  // The hash is taken over the bytes as served, before anything is decoded.
  const integrity = await checkIntegrity(url, bytes);
  if (integrity.status === 'mismatch') {
    const error = new PartError(
      'This lesson file failed its integrity check',
      `integrity: SHA-256 of the file begins ${integrity.actual}, but its published name says ${integrity.expected}`,
    );
    error.integrity = integrity;
    throw error;
  }
  const decoded = decodeLessonBytes(bytes);
  if (!decoded.ok) throw new PartError('This lesson file is not valid', decoded.error);
  return { text: decoded.text, integrity };
}

/**
 * Companion JSON (equations, lesson names), which improves the page but is not required for it:
 * `{json}` when it could be had, else `{json: null, problem}` saying why (a console note too).
 * Held to the same rules as the lesson file: same origin (or `ownOrigin`) after redirects, `timeoutMs`, and at
 * most `maxBytes` read (a Content-Length above it is refused before the body is read).
 * @param {URL} url
 * @param {{signal: AbortSignal, timeoutMs: number, maxBytes: number, ownOrigin?: string}} options
 * @returns {Promise<{json: unknown, problem?: undefined} | {json: null, problem: string}>}
 */
export async function fetchOptionalJson(url, { signal, timeoutMs, maxBytes, ownOrigin = window.location.origin }) {
  const limit = deadline(signal, timeoutMs);
  try {
    const response = await fetch(url, { credentials: 'same-origin', signal: limit.signal });
    const finalOrigin = new URL(response.url || url.href).origin;
    if (finalOrigin !== window.location.origin && finalOrigin !== ownOrigin) {
      await response.body?.cancel().catch(() => {});
      throw new Error('redirected to another site');
    }
    if (!response.ok) {
      await response.body?.cancel().catch(() => {});
      throw new Error(`HTTP ${response.status}`);
    }
    const bytes = await readLimited(response, maxBytes, () => new Error(`the file is larger than the ${byteText(maxBytes)} it may have`));
    return { json: JSON.parse(new TextDecoder().decode(bytes)) };
  } catch (error) {
    const problem = `${addressText(url.pathname)}: ${limit.timedOut() ? `no complete answer within ${timeoutMs / 1000} s` : describe(error)}`;
    if (!signal.aborted) console.warn(`Rendering without ${problem}`);
    return { json: null, problem };
  } finally {
    limit.done();
  }
}
