// The element's two style sheets as text (style.css and KaTeX's katex.min.css, keyed by their
// paths in config.js), for a page where a bundler left their addresses unloadable
// (styles.js, carriedSheet). script/site/bundle-app.mjs replaces this module by one holding the
// built files' text, as its own chunk (chunks/carried-styles-<hash>.js) that app.js imports only
// then. From source (a host bundling web/src itself) none is carried: the sheets are linked.
export const CARRIED_STYLES = null;
