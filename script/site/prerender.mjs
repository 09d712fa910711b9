#!/usr/bin/env node
// Renders the published lesson into the built index.html at build time, so it is readable
// before any script runs (and with none): the same view code the page runs
// (web/src/lesson-view.js) against a DOM from linkedom, after the same engine validation (the
// built wasm module, through web/src/engine.js) and the same integrity check
// (web/src/lesson-file.js). The lesson goes inside <prefill-trace-lesson> as a declarative
// shadow root (<template shadowrootmode="open">), styles scoped as at run time; the element
// adopts it when its script runs (web/src/prerendered.js).
//
// The equation is typeset by KaTeX here (renderToString). KaTeX positions glyphs with inline
// style attributes, which the page's CSP (style-src 'self') refuses in markup: each distinct
// style becomes a class whose rule (with !important, the precedence an inline style has) goes
// into the built-in lesson's one style sheet, lesson-<hash>.css: KaTeX's rules, those classes
// and style.css.
//
// Parts that need script say so: the quiz's "Check answer" is disabled with a note in its
// feedback area, and the explorer's place holds a note. Both go when the element adopts.
//   node script/site/prerender.mjs SITE_DIR     (SITE_DIR/index.html is rewritten in place)

import { createHash } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseHTML } from 'linkedom';

const repo = fileURLToPath(new URL('../../', import.meta.url));
const site = path.resolve(process.argv[2] ?? 'build/web');

function die(message) {
  console.error(`prerender: ${message}`);
  process.exit(1);
}

// KaTeX first: it warns about "quirks mode" when it finds a global document at load.
const { default: katex } = await import(pathToFileURL(path.join(repo, 'node_modules/katex/dist/katex.mjs')).href);

// The view code builds DOM through the global document (web/src/dom.js).
const { document, Node } = parseHTML('<!doctype html><html><head></head><body></body></html>');
globalThis.document = document;
globalThis.Node = Node;

const web = (file) => import(pathToFileURL(path.join(repo, 'web/src', file)).href);
const [{ renderLesson }, { KATEX_OPTIONS, pendingLatexOf }, config, { Engine }, lessonFile, prerendered] =
  await Promise.all([
    web('lesson-view.js'),
    web('equation.js'),
    web('config.js'),
    web('engine.js'),
    web('lesson-file.js'),
    web('prerendered.js'),
  ]);
// --- the lesson, validated as the page validates it -------------------------------------------
const indexPath = path.join(site, 'index.html');
const html = await readFile(indexPath, 'utf8');
const elementPattern = /(<prefill-trace-lesson\b[^>]*>)([\s\S]*?)(<\/prefill-trace-lesson>)/;
const elementMatch = html.match(elementPattern);
if (!elementMatch) die(`${indexPath} has no <prefill-trace-lesson> element`);
const lessonPath = elementMatch[1].match(/\blesson-src="([^"]+)"/)?.[1] ?? config.DEFAULT_LESSON_PATH;

const require = createRequire(import.meta.url);
const factory = require(path.join(site, config.ENGINE_DIR, 'prefill_trace.js'));
const engine = new Engine(
  await factory({ wasmBinary: await readFile(path.join(site, config.ENGINE_DIR, config.ENGINE_WASM)) }),
);

const bytes = await readFile(path.join(site, lessonPath));
// The page checks the hash in a URL's last segment; any base gives the same name.
const integrity = await lessonFile.checkIntegrity(new URL(lessonPath, 'https://build.invalid/'), bytes);
if (integrity.status !== 'verified') die(`${lessonPath}: integrity ${integrity.status}: ${JSON.stringify(integrity)}`);
const decoded = lessonFile.decodeLessonBytes(bytes);
if (!decoded.ok) die(`${lessonPath}: ${decoded.error}`);
const validated = engine.loadLesson(decoded.text);
if (!validated.ok) die(`${lessonPath}: ${validated.error}`);
const { lesson } = validated;

const readJson = async (file) => JSON.parse(await readFile(path.join(site, file), 'utf8'));
const equations = (await readJson(config.EQUATIONS_PATH))[lesson.id];
const related = (await readJson(config.RELATED_LESSONS_PATH)).lessons;

// --- the view ----------------------------------------------------------------------------------
const { h } = await web('dom.js');
const needsScript = (text) => h('p', { class: `note ${prerendered.NEEDS_SCRIPT_CLASS}` }, text);
const explorerPlace = h(
  'section',
  { id: 'explorer', class: 'explorer explorer--placeholder', 'aria-labelledby': 'explorer-heading' },
  h('h2', { id: 'explorer-heading' }, 'Explore the resource trace'),
  needsScript(
    'The trace explorer computes every figure with the prefill-trace engine (WebAssembly) in your browser: it needs JavaScript.',
  ),
);
const article = renderLesson({
  lesson,
  equations: Array.isArray(equations) ? equations : [],
  relatedLessons: related && typeof related === 'object' ? related : {},
  lessonUrl: lessonPath,
  onCheck: () => die('onCheck called at build time'),
  explorer: explorerPlace,
});
for (const form of article.querySelectorAll('form.quiz')) {
  form.querySelector('button[type="submit"]').setAttribute('disabled', '');
  form.querySelector('.feedback').append(needsScript('Checking an answer needs JavaScript.'));
}

// --- the equation, typeset -------------------------------------------------------------------
const styleClasses = new Map();
for (const slot of article.querySelectorAll('.equation-math--pending')) {
  const latex = pendingLatexOf(slot);
  if (latex === null) die('an equation slot without LaTeX');
  slot.classList.remove('equation-math--pending');
  slot.innerHTML = katex.renderToString(latex, KATEX_OPTIONS);
  if (slot.querySelector('.katex-error')) die(`KaTeX refused ${latex}`);
  for (const styled of slot.querySelectorAll('[style]')) {
    const style = styled.getAttribute('style').trim();
    if (!styleClasses.has(style)) styleClasses.set(style, `pt-katex-${styleClasses.size + 1}`);
    styled.removeAttribute('style');
    styled.classList.add(styleClasses.get(style));
  }
}
const important = (style) =>
  style
    .split(';')
    .map((declaration) => declaration.trim())
    .filter(Boolean)
    .map((declaration) => `${declaration} !important`)
    .join(';');
const mathCss = [...styleClasses].map(([style, name]) => `.${name}{${important(style)}}`).join('\n');

// --- one style sheet for the built-in lesson ---------------------------------------------------
// KaTeX's rules (without its @font-face rules, which a shadow root ignores: the fonts are
// declared in the document), the equation's classes, then the lesson's own sheet, which
// refines KaTeX's: one render-blocking request instead of three, named by its content (it is
// cached for good; script/serve.mjs).
const katexCss = (await readFile(path.join(site, config.KATEX_STYLESHEET), 'utf8')).replace(/@font-face\{[^}]*\}/g, '');
const lessonCss = await readFile(path.join(site, config.SHADOW_STYLESHEET), 'utf8');
const combined =
  `/* KaTeX (katex.min.css, MIT) */\n${katexCss}\n` +
  `/* KaTeX's inline styles of the build-time equation, as classes (script/site/prerender.mjs) */\n${mathCss}\n` +
  `/* The lesson (style.css) */\n${lessonCss}`;
const combinedName = `lesson-${createHash('sha256').update(combined).digest('hex').slice(0, 16)}.css`;
await writeFile(path.join(site, combinedName), combined);

// --- into index.html ---------------------------------------------------------------------------
const root = h('div', { class: 'ptl', [prerendered.PRERENDERED_ATTRIBUTE]: lessonPath }, article);
const template =
  '<template shadowrootmode="open">' +
  `<link rel="stylesheet" href="${combinedName}" data-lesson-sheet>` +
  root.outerHTML +
  '</template>';
// data-prerendered: page.css lays the element out as the upgraded one at once (no shift).
const openTag = open => open.replace(/>$/, ' data-prerendered>');
// The head's preload of the lesson's sheet names the sheet the built-in lesson links.
const stylePreload = `<link rel="preload" href="${config.SHADOW_STYLESHEET}" as="style">`;
if (!html.includes(stylePreload)) die(`index.html has no ${stylePreload}`);
await writeFile(
  indexPath,
  html
    .replace(stylePreload, `<link rel="preload" href="${combinedName}" as="style">`)
    .replace(elementPattern, (_, open, _inner, close) => `${openTag(open)}${template}${close}`),
);
console.log(
  `prerender: ${lessonPath} (${lesson.id}) into index.html, its style sheet ${combinedName} (${styleClasses.size} KaTeX styles as classes)`,
);
