// A tiny host for tests that need what script/serve.mjs does not do on purpose: lesson files
// that drip, stall, overflow or redirect. It serves a site folder (default build/web) as static
// files, plus `routes`: `{'/path': (req, res) => …}` handlers tried first. Only 127.0.0.1.

import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createServer } from 'node:http';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { site } from './helpers.mjs';

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.wasm': 'application/wasm',
  '.woff2': 'font/woff2',
  '.svg': 'image/svg+xml',
};

/**
 * Starts the host on a free port (`mounts` serves other folders under path prefixes). Resolves to `{origin, requests, sockets, stop()}`:
 * `requests` lists every path asked for, in order.
 */
export async function startHostServer({ root = site, routes = {}, mounts = {} } = {}) {
  const requests = [];
  const sockets = new Set();
  const server = createServer(async (req, res) => {
    const url = new URL(req.url, 'http://host');
    requests.push(url.pathname);
    if (url.pathname === '/favicon.ico') return void res.writeHead(204).end();
    const route = routes[url.pathname];
    if (route) return route(req, res, url);
    // `mounts`: {'/prefix/': folder} serves another folder under a path prefix.
    const prefix = Object.keys(mounts).find((p) => url.pathname.startsWith(p));
    const base = prefix ? mounts[prefix] : root;
    let rest = prefix ? url.pathname.slice(prefix.length - 1) : url.pathname;
    if (rest.endsWith('/')) rest += 'index.html';
    const file = path.join(base, path.normalize(decodeURIComponent(rest)).replace(/^(\.\.[/\\])+/, ''));
    if (!file.startsWith(base)) {
      res.writeHead(403).end();
      return undefined;
    }
    try {
      const info = await stat(file);
      if (!info.isFile()) throw new Error('not a file');
      res.writeHead(200, {
        'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream',
        'content-length': info.size,
      });
      await pipeline(createReadStream(file), res);
    } catch {
      if (!res.headersSent) res.writeHead(404).end();
      else res.destroy();
    }
    return undefined;
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${server.address().port}`;
  return {
    origin,
    requests,
    sockets,
    stop: () =>
      new Promise((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(resolve);
      }),
  };
}

/**
 * Routes for a host page, /test-host.html, whose module (/test-host.js) sets the element's
 * static knobs, then mounts one element with the attributes in the page's query string
 * (`?lesson-src=…&view=…`).
 */
export function hostPageRoutes() {
  // Query parameters: timeout-ms and max-bytes set the static knobs; no-element mounts
  // nothing; every other parameter becomes an attribute of the element.
  const script = `
import { PrefillTraceLesson } from './element-entry.js';
const params = new URLSearchParams(location.search);
if (params.has('timeout-ms')) PrefillTraceLesson.lessonTimeoutMs = Number(params.get('timeout-ms'));
if (params.has('max-bytes')) PrefillTraceLesson.maxLessonBytes = Number(params.get('max-bytes'));
if (!params.has('no-element')) {
  const el = document.createElement('prefill-trace-lesson');
  for (const [name, value] of params) if (!['timeout-ms', 'max-bytes'].includes(name)) el.setAttribute(name, value);
  document.body.append(el);
}
`;
  return {
    '/element-entry.js': (req, res) => {
      // app.js defines the element; this module waits for it and hands over the class.
      res.writeHead(200, { 'content-type': 'text/javascript' });
      res.end(`import './app.js';\nexport const PrefillTraceLesson = await customElements.whenDefined('prefill-trace-lesson');\n`);
    },
    '/test-host.js': (req, res) => {
      res.writeHead(200, { 'content-type': 'text/javascript' });
      res.end(script);
    },
    '/test-host.html': (req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end('<!doctype html><html lang="en"><title>test host</title><body><script type="module" src="/test-host.js"></script></body></html>');
    },
  };
}
