// Builds the Atlas-like host the way the Atlas builds itself (Vite, React 19), with the lesson
// element bundled into the host's own build (web/src/main.js); the element's assets (engine,
// chunks, style sheets, data) are served from the built site under /prefill-trace/.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const here = fileURLToPath(new URL('.', import.meta.url));

export default defineConfig({
  root: here,
  base: '/',
  logLevel: 'warn',
  build: {
    outDir: fileURLToPath(new URL('../../../build/hosts/atlas-like/', import.meta.url)),
    emptyOutDir: true,
  },
  server: { fs: { allow: [fileURLToPath(new URL('../../../', import.meta.url))] } },
  // The element imports its engine as `prefill-trace` (web/src/engine.js), which the npm package
  // resolves to its ES-module build; from the repository, that build.
  resolve: { alias: { 'prefill-trace': fileURLToPath(new URL('../../../build/wasm/esm/prefill_trace.mjs', import.meta.url)) } },
});
