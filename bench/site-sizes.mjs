// Raw and gzip (-9) size of every file of the assembled site (build/web), largest first, and
// their sum. What a first visit actually downloads is smaller (most KaTeX fonts are never
// fetched: the browser loads a @font-face file only when a glyph needs it); bench/page-bench.mjs
// measures that.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { gzipSync } from "node:zlib";
import path from "node:path";

const root = path.resolve(process.argv[2] ?? "build/web");
const files = [];
(function walk(dir) {
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) walk(full);
    else files.push(full);
  }
})(root);

let raw = 0, gzip = 0;
const rows = files.map((file) => {
  const bytes = readFileSync(file);
  const zipped = gzipSync(bytes, { level: 9 }).length;
  raw += bytes.length;
  gzip += zipped;
  return [path.relative(root, file), bytes.length, zipped];
}).sort((a, b) => b[2] - a[2]);
for (const [name, size, zipped] of rows) {
  console.log(`size ${name.padEnd(52)} ${String(size).padStart(9)} B raw ${String(zipped).padStart(8)} B gzip`);
}
console.log(`size ${"(all files, incl. every KaTeX font)".padEnd(52)} ${String(raw).padStart(9)} B raw ${String(gzip).padStart(8)} B gzip`);
