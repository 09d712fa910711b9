// Tests of script/serve.mjs over plain HTTP (no browser): descriptors are released when clients
// abort downloads, precompressed siblings are negotiated by Accept-Encoding, and caching
// follows the file name (content-hashed names immutable, everything else revalidated).

import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { assertSiteBuilt, site, startServer } from './helpers.mjs';

/** A small request helper: resolves to {status, headers, body (Buffer)}. */
function get(origin, pathname, headers = {}) {
  return new Promise((resolve, reject) => {
    const req = http.get(origin + pathname, { headers, agent: false }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
  });
}

/** Starts a download of `pathname`, waits for its first bytes, then drops the connection. */
function abortAfterFirstBytes(origin, pathname) {
  return new Promise((resolve, reject) => {
    const req = http.get(origin + pathname, { agent: false }, (res) => {
      res.once('data', () => {
        req.destroy();
        resolve();
      });
    });
    req.on('error', (error) => (error.code === 'ECONNRESET' ? resolve() : reject(error)));
  });
}

const openDescriptors = (pid) => readdirSync(`/proc/${pid}/fd`).length;

let root;
let server;
// A file far larger than the socket buffers (a few MiB on Linux), so every download is
// still in progress — its file open — when the client goes away.
const LARGE_BYTES = 32 * 1024 * 1024;
const text = 'prefill reads the prompt once, '.repeat(2000);

before(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'serve-test-'));
  await writeFile(path.join(root, 'index.html'), '<!doctype html><title>t</title>');
  await writeFile(path.join(root, 'large.bin'), randomBytes(LARGE_BYTES));
  await writeFile(path.join(root, 'notes.txt'), text);
  // The siblings build-site writes; written here from the same text by zlib.
  await writeFile(path.join(root, 'notes.txt.br'), brotliCompressSync(text));
  await writeFile(path.join(root, 'notes.txt.gz'), gzipSync(text));
  await writeFile(path.join(root, 'data-0123456789abcdef.json'), '{"hashed": true}');
  server = await startServer({ root });
});

after(async () => {
  await server?.stop();
  if (root) await rm(root, { recursive: true, force: true });
});

test('aborted downloads release their file descriptors (issue 15 A)', async () => {
  const pid = server.child.pid;
  // One complete request first, so lazily opened descriptors (e.g. the epoll set) are counted
  // in the baseline.
  assert.equal((await get(server.origin, '/index.html')).status, 200);
  const baseline = openDescriptors(pid);
  const ABORTS = 100;
  for (let i = 0; i < ABORTS; i += 1) await abortAfterFirstBytes(server.origin, '/large.bin');
  // The server notices each closed socket asynchronously: wait (bounded) for it to settle.
  let now = openDescriptors(pid);
  for (let waited = 0; now > baseline && waited < 5000; waited += 50) {
    await new Promise((r) => setTimeout(r, 50));
    now = openDescriptors(pid);
  }
  // A leak of one descriptor per aborted transfer would leave baseline + 100 here; fewer than
  // the baseline happens when the baseline request's own socket had not closed yet.
  assert.ok(now <= baseline, `open descriptors: ${baseline} before ${ABORTS} aborted downloads, ${now} after`);
  // And the server still answers a whole file.
  const whole = await get(server.origin, '/large.bin');
  assert.equal(whole.status, 200);
  assert.equal(whole.body.length, LARGE_BYTES);
});

test('a precompressed sibling is sent by Accept-Encoding, with Vary and its own length', async () => {
  const br = await get(server.origin, '/notes.txt', { 'accept-encoding': 'gzip, deflate, br' });
  assert.equal(br.headers['content-encoding'], 'br');
  assert.equal(br.headers.vary, 'Accept-Encoding');
  assert.equal(br.headers['content-type'], 'text/plain; charset=utf-8', 'the type of the original file');
  assert.equal(Number(br.headers['content-length']), (await readFile(path.join(root, 'notes.txt.br'))).length);
  assert.equal(brotliDecompressSync(br.body).toString(), text);

  // brotli refused by q=0: gzip.
  const gz = await get(server.origin, '/notes.txt', { 'accept-encoding': 'br;q=0, gzip' });
  assert.equal(gz.headers['content-encoding'], 'gzip');
  assert.equal(gunzipSync(gz.body).toString(), text);

  // No Accept-Encoding: the file itself, still marked as varying.
  const plain = await get(server.origin, '/notes.txt');
  assert.equal(plain.headers['content-encoding'], undefined);
  assert.equal(plain.headers.vary, 'Accept-Encoding');
  assert.equal(plain.body.toString(), text);
  assert.equal(Number(plain.headers['content-length']), Buffer.byteLength(text));

  // Each representation has its own validator; a 304 keeps Vary.
  assert.notEqual(br.headers.etag, plain.headers.etag);
  const revalidated = await get(server.origin, '/notes.txt', {
    'accept-encoding': 'br',
    'if-none-match': br.headers.etag,
  });
  assert.equal(revalidated.status, 304);
  assert.equal(revalidated.headers.vary, 'Accept-Encoding');
  const otherEncoding = await get(server.origin, '/notes.txt', { 'if-none-match': br.headers.etag });
  assert.equal(otherEncoding.status, 200, "the brotli validator does not match the identity body");

  // A file without siblings does not vary.
  const index = await get(server.origin, '/index.html', { 'accept-encoding': 'br, gzip' });
  assert.equal(index.headers['content-encoding'], undefined);
  assert.equal(index.headers.vary, undefined);
});

test('content-hashed names are immutable; other files revalidate', async () => {
  const hashed = await get(server.origin, '/data-0123456789abcdef.json');
  assert.equal(hashed.headers['cache-control'], 'public, max-age=31536000, immutable');
  for (const name of ['/', '/index.html', '/notes.txt']) {
    const res = await get(server.origin, name, { 'accept-encoding': 'br' });
    assert.equal(res.headers['cache-control'], 'no-cache', name);
    assert.ok(res.headers.etag, `${name} has a validator`);
  }
});

test('build/web: siblings decompress to their files, chunk names are their SHA-256 prefixes', async () => {
  assertSiteBuilt();
  const { createHash } = await import('node:crypto');
  const all = readdirSync(site, { recursive: true }).map(String);
  const compressible = all.filter((f) => /\.(html|js|css|json|wasm|svg)$/.test(f));
  assert.ok(compressible.includes('wasm/prefill_trace.wasm') && compressible.includes('index.html'));
  for (const file of compressible) {
    const bytes = await readFile(path.join(site, file));
    // build-site skips a sibling only when it would not be smaller; every file here is large
    // enough for both to be (the smallest, favicon.svg, is several hundred bytes of text).
    assert.ok(all.includes(`${file}.br`) && all.includes(`${file}.gz`), `${file} has .br and .gz`);
    assert.ok(brotliDecompressSync(await readFile(path.join(site, `${file}.br`))).equals(bytes), `${file}.br`);
    assert.ok(gunzipSync(await readFile(path.join(site, `${file}.gz`))).equals(bytes), `${file}.gz`);
  }
  const chunks = all.filter((f) => /^chunks\/[a-z]+-[0-9a-f]{16}\.js$/.test(f));
  // charts and katex (split by esbuild), and styles (the element's sheets as text, written by
  // script/site/bundle-app.mjs for bundlers that break the element's own style sheets).
  assert.deepEqual(
    chunks.map((f) => f.replace(/-[0-9a-f]{16}\.js$/, '')).sort(),
    ['chunks/charts', 'chunks/katex', 'chunks/styles'],
    `three hashed chunks: ${all.filter((f) => f.startsWith('chunks/'))}`,
  );
  const app = await readFile(path.join(site, 'app.js'), 'utf8');
  for (const chunk of chunks) {
    const sha = createHash('sha256').update(await readFile(path.join(site, chunk))).digest('hex');
    assert.equal(chunk.match(/-([0-9a-f]{16})\.js$/)[1], sha.slice(0, 16), chunk);
    assert.ok(app.includes(chunk), `app.js names ${chunk}`);
  }
});

test('build/web served: the wasm module compressed, as application/wasm', async (t) => {
  const built = await startServer();
  t.after(() => built.stop());
  const res = await get(built.origin, '/wasm/prefill_trace.wasm', { 'accept-encoding': 'br, gzip' });
  assert.equal(res.status, 200);
  assert.equal(res.headers['content-type'], 'application/wasm');
  assert.equal(res.headers['content-encoding'], 'br');
  const original = await readFile(path.join(site, 'wasm/prefill_trace.wasm'));
  assert.ok(brotliDecompressSync(res.body).equals(original));
  assert.ok(res.body.length < original.length);
});
