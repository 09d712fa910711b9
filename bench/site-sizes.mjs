// Raw, gzip and brotli size of every file of the assembled site (build/web), largest first,
// and their sums: the .gz/.br siblings build-site wrote (what script/serve.mjs sends), or
// the raw size where there is none (fonts, and files compression would not shrink). What a first visit actually downloads is smaller (most KaTeX fonts are never
// fetched: the browser loads a @font-face file only when a glyph needs it); bench/page-bench.mjs
// measures that.
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";

const root = path.resolve(process.argv[2] ?? "build/web");
const files = [];
(function walk(dir) {
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) walk(full);
    else if (!/\.(br|gz)$/.test(name)) files.push(full);
  }
})(root);

const sizeOr = (file, fallback) => (existsSync(file) ? statSync(file).size : fallback);
let raw = 0, gzip = 0, brotli = 0;
const rows = files.map((file) => {
  const size = statSync(file).size;
  const zipped = sizeOr(`${file}.gz`, size);
  const brotlied = sizeOr(`${file}.br`, size);
  raw += size;
  gzip += zipped;
  brotli += brotlied;
  return [path.relative(root, file), size, zipped, brotlied];
}).sort((a, b) => b[3] - a[3]);
const line = (name, size, zipped, brotlied) =>
  console.log(`size ${name.padEnd(52)} ${String(size).padStart(9)} B raw ${String(zipped).padStart(8)} B gzip ${String(brotlied).padStart(8)} B brotli`);
for (const row of rows) line(...row);
line("(all files, incl. every KaTeX font)", raw, gzip, brotli);
