// @ts-check
// KaTeX's @font-face rules (node_modules/katex/dist/katex.min.css, woff2 only), as the element
// declares them in the host document (Chromium ignores @font-face inside a shadow root): FontFace
// objects added to document.fonts, each font file written as `new URL('<literal>', import.meta.url)`
// relative to app.js, so a bundler that takes app.js emits the fonts and rewrites their addresses
// (a style sheet it emits as a raw file would keep `url(fonts/...)`, which then points nowhere).
// script/build-site checks this table against the rules of the KaTeX version it ships.

/** [family, style, weight, file, the file's address beside app.js] @type {[string, string, string, string, () => URL][]} */
export const KATEX_FONTS = [
  ['KaTeX_AMS', 'normal', '400', 'KaTeX_AMS-Regular.woff2', () => new URL('./katex/fonts/KaTeX_AMS-Regular.woff2', import.meta.url)],
  ['KaTeX_Caligraphic', 'normal', '700', 'KaTeX_Caligraphic-Bold.woff2', () => new URL('./katex/fonts/KaTeX_Caligraphic-Bold.woff2', import.meta.url)],
  ['KaTeX_Caligraphic', 'normal', '400', 'KaTeX_Caligraphic-Regular.woff2', () => new URL('./katex/fonts/KaTeX_Caligraphic-Regular.woff2', import.meta.url)],
  ['KaTeX_Fraktur', 'normal', '700', 'KaTeX_Fraktur-Bold.woff2', () => new URL('./katex/fonts/KaTeX_Fraktur-Bold.woff2', import.meta.url)],
  ['KaTeX_Fraktur', 'normal', '400', 'KaTeX_Fraktur-Regular.woff2', () => new URL('./katex/fonts/KaTeX_Fraktur-Regular.woff2', import.meta.url)],
  ['KaTeX_Main', 'normal', '700', 'KaTeX_Main-Bold.woff2', () => new URL('./katex/fonts/KaTeX_Main-Bold.woff2', import.meta.url)],
  ['KaTeX_Main', 'italic', '700', 'KaTeX_Main-BoldItalic.woff2', () => new URL('./katex/fonts/KaTeX_Main-BoldItalic.woff2', import.meta.url)],
  ['KaTeX_Main', 'italic', '400', 'KaTeX_Main-Italic.woff2', () => new URL('./katex/fonts/KaTeX_Main-Italic.woff2', import.meta.url)],
  ['KaTeX_Main', 'normal', '400', 'KaTeX_Main-Regular.woff2', () => new URL('./katex/fonts/KaTeX_Main-Regular.woff2', import.meta.url)],
  ['KaTeX_Math', 'italic', '700', 'KaTeX_Math-BoldItalic.woff2', () => new URL('./katex/fonts/KaTeX_Math-BoldItalic.woff2', import.meta.url)],
  ['KaTeX_Math', 'italic', '400', 'KaTeX_Math-Italic.woff2', () => new URL('./katex/fonts/KaTeX_Math-Italic.woff2', import.meta.url)],
  ['"KaTeX_SansSerif"', 'normal', '700', 'KaTeX_SansSerif-Bold.woff2', () => new URL('./katex/fonts/KaTeX_SansSerif-Bold.woff2', import.meta.url)],
  ['"KaTeX_SansSerif"', 'italic', '400', 'KaTeX_SansSerif-Italic.woff2', () => new URL('./katex/fonts/KaTeX_SansSerif-Italic.woff2', import.meta.url)],
  ['"KaTeX_SansSerif"', 'normal', '400', 'KaTeX_SansSerif-Regular.woff2', () => new URL('./katex/fonts/KaTeX_SansSerif-Regular.woff2', import.meta.url)],
  ['KaTeX_Script', 'normal', '400', 'KaTeX_Script-Regular.woff2', () => new URL('./katex/fonts/KaTeX_Script-Regular.woff2', import.meta.url)],
  ['KaTeX_Size1', 'normal', '400', 'KaTeX_Size1-Regular.woff2', () => new URL('./katex/fonts/KaTeX_Size1-Regular.woff2', import.meta.url)],
  ['KaTeX_Size2', 'normal', '400', 'KaTeX_Size2-Regular.woff2', () => new URL('./katex/fonts/KaTeX_Size2-Regular.woff2', import.meta.url)],
  ['KaTeX_Size3', 'normal', '400', 'KaTeX_Size3-Regular.woff2', () => new URL('./katex/fonts/KaTeX_Size3-Regular.woff2', import.meta.url)],
  ['KaTeX_Size4', 'normal', '400', 'KaTeX_Size4-Regular.woff2', () => new URL('./katex/fonts/KaTeX_Size4-Regular.woff2', import.meta.url)],
  ['KaTeX_Typewriter', 'normal', '400', 'KaTeX_Typewriter-Regular.woff2', () => new URL('./katex/fonts/KaTeX_Typewriter-Regular.woff2', import.meta.url)],
];
