#!/usr/bin/env node
// Writes <file>.br (brotli, quality 11) and <file>.gz (gzip, level 9) beside every text and
// wasm file under a folder, for servers that send precompressed files by Accept-Encoding
// (script/serve.mjs; nginx's gzip_static/brotli_static). A sibling that would not be smaller
// than its file is not written: the server then sends the file itself.
//   node script/site/compress.mjs DIR

import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { constants, brotliCompressSync, gzipSync } from 'node:zlib';

/** Extensions worth compressing (woff2 and png are compressed already). */
const COMPRESSIBLE = new Set(['.html', '.js', '.mjs', '.css', '.json', '.wasm', '.svg', '.txt', '.map']);

const dir = process.argv[2];
if (!dir) {
  console.error('usage: compress.mjs DIR');
  process.exit(2);
}

const entries = await readdir(dir, { recursive: true, withFileTypes: true });
let written = 0;
for (const entry of entries) {
  if (!entry.isFile() || !COMPRESSIBLE.has(path.extname(entry.name).toLowerCase())) continue;
  const file = path.join(entry.parentPath ?? entry.path, entry.name);
  const bytes = await readFile(file);
  const brotli = brotliCompressSync(bytes, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
      [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
      [constants.BROTLI_PARAM_MODE]: path.extname(file) === '.wasm' ? constants.BROTLI_MODE_GENERIC : constants.BROTLI_MODE_TEXT,
    },
  });
  const gzip = gzipSync(bytes, { level: 9 });
  for (const [suffix, compressed] of [['.br', brotli], ['.gz', gzip]]) {
    if (compressed.length >= bytes.length) continue;
    await writeFile(file + suffix, compressed);
    written += 1;
  }
}
console.log(`compress: wrote ${written} .br/.gz files under ${dir}`);
