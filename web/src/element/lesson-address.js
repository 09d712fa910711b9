// Where one rendering's lesson and its companions come from (element/mount.js): the lesson a
// host or the URL names, else the bundled one; the equation pack; the origin each may come from.

import { DEFAULT_LESSON_PATH, EQUATIONS_PATH, RELATED_LESSONS_PATH, assetUrl, fetchableUrl } from '../config.js';
import { PartError, assertSameOrigin, describe } from './loading.js';

/** `<id>-<16 hex>.json`: the lesson id a published Atlas file name carries. */
const PUBLISHED_NAME = /(?:^|\/)([a-z0-9]+(?:-[a-z0-9]+)*)-[0-9a-f]{16}\.json$/;

/**
 * The lesson id a published file name claims, or null for another kind of name.
 * @param {URL} url
 */
export function claimedLessonId(url) {
  return PUBLISHED_NAME.exec(url.pathname)?.[1] ?? null;
}

/**
 * The equation pack (the LaTeX of each lesson's science equations, by lesson id): the host's
 * `equations-src` (same origin; the Atlas's formal equations for its other lessons), else the
 * bundled one, which holds this lesson's.
 * @param {{equationsSrc: string|null, base: URL}} options  the mount's options
 */
export function equationsUrl({ equationsSrc, base }) {
  if (!equationsSrc) return assetUrl(EQUATIONS_PATH, base);
  const url = fetchableUrl(equationsSrc, 'equations-src');
  return url.origin === window.location.origin ? url : assetUrl(EQUATIONS_PATH, base);
}

/**
 * `?lesson=` when the element owns the URL, else null.
 * @param {boolean} syncUrl
 */
function requestedLesson(syncUrl) {
  return syncUrl ? new URLSearchParams(window.location.search).get('lesson') : null;
}

/**
 * The lesson file a host or the URL names (`?lesson=` when the element owns the URL, else `lesson-src`), or null.
 * @param {{syncUrl: boolean, lessonSrc: string|null}} options  the mount's options
 */
export function lessonSource({ syncUrl, lessonSrc }) {
  return requestedLesson(syncUrl) || lessonSrc || null;
}

/**
 * The lesson file to show: `?lesson=` (when the element owns the URL), `lesson-src`, or the bundled one.
 * @param {{syncUrl: boolean, lessonSrc: string|null, base: URL}} options  the mount's options
 */
export function lessonAddress(options) {
  const requested = requestedLesson(options.syncUrl);
  const source = lessonSource(options);
  let url;
  try {
    url = source ? fetchableUrl(source, requested ? '?lesson=' : 'lesson-src') : assetUrl(DEFAULT_LESSON_PATH, options.base);
  } catch (error) {
    throw new PartError('This lesson cannot be shown', describe(error));
  }
  assertSameOrigin(url, ownOrigin(url, options.base));
  return url;
}

/**
 * The origin `url` may come from besides the page's: its own, when it is one of the element's
 * bundled files (the lesson and its companions, under the asset base: a CDN's origin when the
 * element is loaded from one). A host's `lesson-src` or `?lesson=` must be on the page's origin.
 * @param {URL} url
 * @param {URL} base  the asset base
 */
export function ownOrigin(url, base) {
  const bundled = [DEFAULT_LESSON_PATH, EQUATIONS_PATH, RELATED_LESSONS_PATH].some((path) => assetUrl(path, base).href === url.href);
  return bundled ? url.origin : window.location.origin;
}
