// The element's own lesson data, when app.js carries it: script/site/bundle-app.mjs builds
// app.js with this module replaced by one holding the three files, keyed by their paths
// (config.js): the lesson's bytes as text (its integrity is checked as a fetched file's is) and
// the equation pack and the lesson names as JSON. Carried rather than fetched, no bundler that
// takes app.js meets them as files: Parcel made JS modules of them, Vite `data:` URLs (under
// 4 KiB), which a strict CSP's `connect-src 'self'` refuses. From source (a host bundling
// web/src itself), none is carried: they are fetched under the asset base.
export const BUNDLED_DATA = null;
