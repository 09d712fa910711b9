// Bundles web/src/main.js into <out>/app.js (esbuild, minified), with the element's four
// dynamic imports written as literal addresses beside app.js:
//   import('prefill-trace')        → "./wasm/prefill_trace.mjs"  (the package's ES-module engine)
//   import('../charts/index.js')   → "./<charts chunk>"          (chunks/charts-<hash>.js)
//   import('katex')                → "./<katex chunk>"           (chunks/katex-<hash>.js)
//   import('./carried-styles.js')  → "./chunks/styles-<hash>.js"  (written here, below)
// Literal relative specifiers are what every bundler follows when a host bundles app.js
// (webpack 5, Vite, Rollup, esbuild, Parcel), and what a browser resolves next to app.js when
// it is loaded as it is. Usage: node script/site/bundle-app.mjs <out> <charts chunk> <katex chunk>
// app.js also carries the element's three data files (web/src/element/bundled-data.js says why):
// that module is replaced here by one importing lesson-data/ — the lesson as its text, byte for
// byte (its integrity is checked), the equation pack and the lesson names as JSON.
// And one more chunk, written here: chunks/styles-<hash>.js, the text of <out>/style.css and
// <out>/katex/katex.min.css (as build-site left them), which app.js imports only where a bundler
// left the sheets' addresses unloadable (web/src/element/styles.js, carriedSheet).
import * as esbuild from 'esbuild';
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import { DEFAULT_LESSON_PATH, EQUATIONS_PATH, KATEX_STYLESHEET, RELATED_LESSONS_PATH, SHADOW_STYLESHEET } from '../../web/src/config.js';

const carriedData = `import lesson from './${DEFAULT_LESSON_PATH}' with { type: 'text' };
import equations from './${EQUATIONS_PATH}' with { type: 'json' };
import related from './${RELATED_LESSONS_PATH}' with { type: 'json' };
export const BUNDLED_DATA = Object.freeze({
  ${JSON.stringify(DEFAULT_LESSON_PATH)}: lesson,
  ${JSON.stringify(EQUATIONS_PATH)}: equations,
  ${JSON.stringify(RELATED_LESSONS_PATH)}: related,
});
`;
let carried = false;

const [out, chartsChunk, katexChunk] = process.argv.slice(2);
if (!katexChunk) throw new Error('usage: bundle-app.mjs <out> <charts chunk> <katex chunk>');

/** chunks/styles-<16 hex digits of its SHA-256>.js, the element's two sheets as text. */
function writeStylesChunk() {
  const sheets = Object.fromEntries([SHADOW_STYLESHEET, KATEX_STYLESHEET].map((file) => [file, readFileSync(path.join(out, file), 'utf8')]));
  const text = `export const CARRIED_STYLES = Object.freeze(${JSON.stringify(sheets)});\n`;
  const name = `chunks/styles-${createHash('sha256').update(text).digest('hex').slice(0, 16)}.js`;
  writeFileSync(path.join(out, name), text);
  return name;
}
const stylesChunk = writeStylesChunk();

const literal = {
  'prefill-trace': './wasm/prefill_trace.mjs',
  '../charts/index.js': `./${chartsChunk}`,
  katex: `./${katexChunk}`,
  './carried-styles.js': `./${stylesChunk}`,
};
const seen = new Set();

await esbuild.build({
  entryPoints: { app: 'web/src/main.js' },
  bundle: true,
  minify: true,
  format: 'esm',
  target: 'es2022',
  legalComments: 'eof',
  logLevel: 'warning',
  outdir: out,
  plugins: [
    {
      name: 'element-chunks',
      setup(build) {
        build.onResolve({ filter: /^(prefill-trace|katex|\.\.\/charts\/index\.js|\.\/carried-styles\.js)$/ }, (args) => {
          if (args.kind !== 'dynamic-import') return undefined;
          seen.add(args.path);
          return { path: literal[args.path], external: true };
        });
        build.onLoad({ filter: /[\\/]web[\\/]src[\\/]element[\\/]bundled-data\.js$/ }, () => {
          carried = true;
          return { contents: carriedData, loader: 'js', resolveDir: path.resolve('.') };
        });
      },
    },
  ],
});
if (!carried) throw new Error('web/src no longer imports element/bundled-data.js: update bundle-app.mjs');

const missing = Object.keys(literal).filter((name) => !seen.has(name));
if (missing.length) throw new Error(`web/src no longer imports ${missing.join(', ')} dynamically: update bundle-app.mjs`);
