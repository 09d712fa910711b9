#!/usr/bin/env node
// A small static file server for the built lesson site, bound to 127.0.0.1.
//   node script/serve.mjs [--root build/web] [--port 8000]     (--port 0 picks a free port)
// Prints "Serving <root> at http://127.0.0.1:<port>/" once listening (the browser tests read it).
// Sends the same Content-Security-Policy as the page's <meta> tag (read from <root>/index.html,
// so the policy has one source), correct MIME types (application/wasm enables streaming
// compilation), an ETag so `no-cache` revalidation can answer 304, and refuses any path that
// leaves the root: every file it sends (the file asked for, a directory's index.html, a
// precompressed sibling) goes through one resolver, `fileInside`, which opens the file first and
// then checks what it opened: the path's real path (symlinks followed) must be inside the root's
// real path and name the very file opened (same device and inode), so a directory swapped for a
// link out of the root between the check and the open cannot leak a file (issue 33, S4). The
// bytes sent are read from that open descriptor, never from the path again.
// A request target no URL parser accepts (`//`, `http://`, `//[`) is answered 400 without a log
// line; slow or idle clients are cut off by stated timeouts, and the open sockets are capped
// with the oldest idle one closed to make room, so idle sockets cannot lock others out
// (TIMEOUTS below).
//
// Compression: script/build-site writes `<file>.br` and `<file>.gz` beside each text and wasm
// file; the server sends the best one the request's Accept-Encoding allows (brotli, then gzip,
// then the file itself), with `Vary: Accept-Encoding`, the original file's Content-Type and the
// sent bytes' Content-Length. Nothing is compressed per request.
// Caching: a file whose name carries a content hash (`name-<16 hex digits>.ext`, the lesson
// file's own convention) never changes under that name: `max-age=31536000, immutable`. Every
// other file (index.html, app.js, …) is `no-cache`: revalidated with its ETag on each use.
// Every response stream is ended with stream.pipeline, which closes the file when the client
// goes away mid-transfer.

import { constants } from 'node:fs';
import { open, readFile, realpath, stat } from 'node:fs/promises';
import { createServer } from 'node:http';
import path from 'node:path';
import { pipeline } from 'node:stream';
import { parseArgs } from 'node:util';
import Negotiator from 'negotiator';

const HOST = '127.0.0.1';

/**
 * How long a client may take, and how many sockets may be open at once. Node's defaults let a
 * client that sends its headers a byte at a time (slowloris) hold a socket ~90 s; these are
 * stated here instead. `connectionsCheckingInterval` is how often Node checks the first two.
 */
const TIMEOUTS = {
  headersTimeout: 10_000, // ms to receive the request's headers
  requestTimeout: 30_000, // ms to receive the whole request
  keepAliveTimeout: 5_000, // ms an idle keep-alive socket is kept
  connectionsCheckingInterval: 1_000,
};
/** ms a socket may stay silent (nothing received or sent) before it is closed. */
const IDLE_TIMEOUT = 10_000;
/**
 * Open sockets. At the cap, a new connection closes the oldest socket with no request in
 * flight, or is itself closed when every socket is busy: with Node's `maxConnections` alone, 512
 * sockets that never send a byte refused every other client until they closed (issue 33, S5).
 */
const MAX_SOCKETS = 512;

const MIME_TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.wasm': 'application/wasm',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
};

/** Encodings build-site writes beside a file (its name + suffix), best first. */
const ENCODINGS = [
  { name: 'br', suffix: '.br' },
  { name: 'gzip', suffix: '.gz' },
];
const ENCODING_NAMES = [...ENCODINGS.map((e) => e.name), 'identity'];

/** A name that carries a content hash: its bytes never change (see the header comment). */
const HASHED_NAME = /-[0-9a-f]{16}\.[A-Za-z0-9]+$/;
const IMMUTABLE = 'public, max-age=31536000, immutable';

const { values } = parseArgs({
  options: {
    root: { type: 'string', default: 'build/web' },
    port: { type: 'string', default: process.env.PORT ?? '8000' },
  },
});

const port = Number(values.port);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`serve: --port must be an integer 0..65535, got ${values.port}`);
  process.exit(2);
}

let root;
try {
  root = await realpath(values.root);
} catch {
  console.error(`serve: ${values.root} does not exist — run script/build-site first`);
  process.exit(1);
}

/** The page's CSP meta tag, repeated as a header (a header also covers non-HTML responses). */
async function readCsp() {
  try {
    const html = await readFile(path.join(root, 'index.html'), 'utf8');
    const match = html.match(
      /<meta\s+http-equiv="Content-Security-Policy"\s+content="([^"]+)"/i,
    );
    return match ? match[1] : null;
  } catch {
    return null;
  }
}
const csp = await readCsp();

function baseHeaders(cacheControl = 'no-cache') {
  const headers = {
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
    'Cache-Control': cacheControl,
  };
  if (csp) headers['Content-Security-Policy'] = csp;
  return headers;
}

function sendText(res, status, text, extra = {}) {
  res.writeHead(status, {
    ...baseHeaders(),
    'Content-Type': 'text/plain; charset=utf-8',
    ...extra,
  });
  res.end(`${text}\n`);
}

/** Whether an absolute real path is the root or inside it. */
const insideRoot = (real) => real === root || real.startsWith(root + path.sep);

/**
 * The real path of the file an open handle holds. Linux names it at /proc/self/fd/N, from the
 * descriptor itself: no path is walked again, so no swap can change the answer. Elsewhere
 * (macOS while developing) the path's real path is taken after the open and must name the
 * same device and inode; that check has a window between realpath and stat, stated here.
 */
async function realPathOf(handle, candidate) {
  try {
    return await realpath(`/proc/self/fd/${handle.fd}`);
  } catch {
    const real = await realpath(candidate);
    const [opened, named] = await Promise.all([handle.stat(), stat(real)]);
    return named.dev === opened.dev && named.ino === opened.ino ? real : null;
  }
}

/**
 * The one path resolver, open-then-check: opens `candidate`, then keeps it only when what was
 * opened is a regular file whose real path (realPathOf: the descriptor's, not the path's) is
 * inside the root's real path. Checking the path and then opening it again let a directory
 * swapped for a link out of the root in between leak the outside file (issue 33, S4). Returns
 * the open file handle (the caller closes it), real path, size and modification time, or null.
 * Every file the server sends comes from here. O_NONBLOCK: opening a FIFO must not wait for a
 * writer (it is then refused as not a regular file).
 */
async function fileInside(candidate) {
  let handle;
  try {
    handle = await open(candidate, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch {
    return null;
  }
  try {
    const opened = await handle.stat();
    const real = opened.isFile() ? await realPathOf(handle, candidate) : null;
    if (real && insideRoot(real)) {
      return { handle, file: real, size: opened.size, mtimeMs: opened.mtimeMs };
    }
  } catch {
    // fall through: refused
  }
  await handle.close();
  return null;
}

/** Closes the handles of files found but not sent. */
async function closeAll(...found) {
  await Promise.all(found.filter(Boolean).map((f) => f.handle.close().catch(() => {})));
}

/** Whether `candidate` is a directory whose real path is inside the root's. */
async function directoryInside(candidate) {
  try {
    const real = await realpath(candidate);
    if (!insideRoot(real)) return false;
    return (await stat(real)).isDirectory();
  } catch {
    return false;
  }
}

/**
 * Maps a URL path to a file under root, or null when it is malformed or leaves root. `name` is
 * the path as asked for (inside root, before symlinks): its precompressed siblings are looked
 * up beside it, then resolved like the file itself.
 */
async function resolveFile(urlPath) {
  let decoded;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return null;
  }
  if (decoded.includes('\0') || decoded.includes('\\')) return null;
  const candidate = path.resolve(root, `.${path.posix.normalize(`/${decoded}`)}`);
  if (candidate !== root && !candidate.startsWith(root + path.sep)) return null;
  const name = (await directoryInside(candidate)) ? path.join(candidate, 'index.html') : candidate;
  const found = await fileInside(name);
  return found ? { ...found, name } : null;
}

/**
 * What to send for `found`: its best precompressed sibling the client accepts, or the file.
 * `varies` says whether a sibling exists at all (then the answer depends on Accept-Encoding).
 */
async function chooseEncoding(req, found) {
  const siblings = new Map();
  for (const { name, suffix } of ENCODINGS) {
    // Beside the name asked for, and through the same resolver: a sibling that links out of
    // the root is no sibling.
    const sibling = await fileInside(found.name + suffix);
    if (sibling) siblings.set(name, sibling);
  }
  if (siblings.size === 0) return { sent: found, encoding: null, varies: false };
  const accepted = new Negotiator(req).encoding(ENCODING_NAMES.filter((n) => n === 'identity' || siblings.has(n)), {
    preferred: ENCODING_NAMES,
  });
  // `identity;q=0` with no acceptable sibling: still send the file (RFC 9110 allows it, and
  // every server of this kind does rather than answer 406).
  const sibling = siblings.get(accepted);
  // Every file opened but not sent is closed here.
  await closeAll(...[found, ...siblings.values()].filter((f) => f !== (sibling ?? found)));
  return sibling ? { sent: sibling, encoding: accepted, varies: true } : { sent: found, encoding: null, varies: true };
}

/**
 * A validator for the file's current bytes (size and modification time). With `no-cache`, the
 * browser revalidates every time and gets a 304 when nothing changed: always fresh, but a
 * repeat visit neither downloads nor compiles the bundle and the wasm module again (their
 * compiled code is cached with the response).
 */
function etagOf(found) {
  return `W/"${found.size.toString(16)}-${Math.floor(found.mtimeMs).toString(16)}"`;
}

/** The request target's path, or null when no URL parser accepts it (a client error). */
function pathnameOf(target) {
  try {
    return new URL(target ?? '/', `http://${HOST}`).pathname;
  } catch {
    return null;
  }
}

const server = createServer(TIMEOUTS, async (req, res) => {
  let opened = null; // the file handle to close if this request fails before streaming it
  try {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      sendText(res, 405, 'Method Not Allowed', { Allow: 'GET, HEAD' });
      return;
    }
    const pathname = pathnameOf(req.url);
    if (pathname === null) {
      sendText(res, 400, 'Bad Request');
      return;
    }
    const found = await resolveFile(pathname);
    if (!found) {
      sendText(res, 404, 'Not Found');
      return;
    }
    const type = MIME_TYPES[path.extname(found.file).toLowerCase()] ?? 'application/octet-stream';
    const { sent, encoding, varies } = await chooseEncoding(req, found);
    opened = sent;
    // Each encoding is its own representation: its own validator.
    const etag = etagOf(sent);
    const headers = {
      ...baseHeaders(HASHED_NAME.test(path.basename(found.file)) ? IMMUTABLE : 'no-cache'),
      ETag: etag,
      ...(varies ? { Vary: 'Accept-Encoding' } : {}),
    };
    const cached = (req.headers['if-none-match'] ?? '').split(',').map((t) => t.trim());
    if (cached.includes(etag)) {
      res.writeHead(304, headers);
      res.end();
      await closeAll(sent);
      return;
    }
    res.writeHead(200, {
      ...headers,
      'Content-Type': type,
      'Content-Length': sent.size,
      ...(encoding ? { 'Content-Encoding': encoding } : {}),
      'Last-Modified': new Date(sent.mtimeMs).toUTCString(),
    });
    if (req.method === 'HEAD') {
      res.end();
      await closeAll(sent);
      return;
    }
    // The bytes of the file checked, from its open handle. pipeline destroys the file stream
    // (closing the handle) when the response closes early (client gone) or fails, and the
    // response when the file fails: no descriptor outlives its request.
    opened = null;
    pipeline(sent.handle.createReadStream({ start: 0 }), res, () => {});
  } catch (error) {
    await closeAll(opened);
    console.error(`serve: ${req.url}: ${error.message}`);
    if (!res.headersSent) sendText(res, 500, 'Internal Server Error');
    else res.destroy();
  }
});

// createServer's options cover the first two timeouts in Node 20; the properties are set too.
server.headersTimeout = TIMEOUTS.headersTimeout;
server.requestTimeout = TIMEOUTS.requestTimeout;
server.keepAliveTimeout = TIMEOUTS.keepAliveTimeout;
// Socket inactivity: Node destroys a socket silent this long (a connection that never sends
// a request line is not covered by headersTimeout until its first byte arrives).
server.timeout = IDLE_TIMEOUT;

/** Open sockets, oldest first, each with its requests in flight. */
const sockets = new Map();
server.on('connection', (socket) => {
  if (sockets.size >= MAX_SOCKETS) {
    const idle = [...sockets].find(([, inFlight]) => inFlight === 0);
    if (!idle) {
      socket.destroy();
      return;
    }
    idle[0].destroy();
    sockets.delete(idle[0]);
  }
  sockets.set(socket, 0);
  socket.once('close', () => sockets.delete(socket));
});
server.on('request', (req, res) => {
  const { socket } = req;
  if (sockets.has(socket)) sockets.set(socket, sockets.get(socket) + 1);
  res.once('close', () => {
    if (sockets.has(socket)) sockets.set(socket, sockets.get(socket) - 1);
  });
});

server.on('error', (error) => {
  console.error(`serve: cannot listen on ${HOST}:${port}: ${error.message}`);
  process.exit(1);
});

server.listen(port, HOST, () => {
  const { port: actual } = server.address();
  console.log(`Serving ${path.relative(process.cwd(), root) || '.'} at http://${HOST}:${actual}/`);
});

for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => server.close(() => process.exit(0)));
}
