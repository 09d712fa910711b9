// @ts-check
// The scenario in the page's URL (`sync-url`): read at start and on back/forward, pushed after
// committed edits, and the permalink the "Copy link" button offers.

import { assetUrl } from '../config.js';
import { CUSTOM_MODEL, fieldOfError, fromQuery, getField, scenarioJson, toQuery, withField } from '../scenario.js';

/** The most fields of a URL the engine may reject, one by one, before giving up. */
const MAX_REJECTED_FIELDS = 32;
/**
 * The longest value a permalink may give one field. The longest real ones are names of a few
 * dozen characters; a parameter of over 1 MiB made the scenario's JSON larger than the engine
 * reads (limits::max_document_bytes), refused with no field named, and the explorer stayed empty
 * with data-state="ready" and no message (issue 33, L5).
 */
export const MAX_FIELD_CHARS = 1024;

export class UrlSync {
  #timer = 0;
  /** @type {(() => void) | null} */
  #onPopState = null;

  /**
   * @param {object} options
   * @param {boolean} options.enabled      whether the element owns the page's URL
   * @param {() => void} options.onPopState  back/forward: the URL names the scenario to show
   * @param {URL} [options.assetBase]  where the lesson's page (index.html) lives, for a
   *        permalink when the element does not own the URL (config.js)
   */
  constructor({ enabled, onPopState, assetBase = undefined }) {
    this.enabled = enabled;
    this.assetBase = assetBase;
    if (enabled) {
      this.#onPopState = () => {
        // The URL now names the scenario to show; a push still pending would overwrite it.
        clearTimeout(this.#timer);
        this.#timer = 0;
        onPopState();
      };
      window.addEventListener('popstate', this.#onPopState);
    }
  }

  /** Removes the window's back/forward listener and any pending push (the explorer was removed). */
  stop() {
    if (this.#onPopState) window.removeEventListener('popstate', this.#onPopState);
    this.#onPopState = null;
    clearTimeout(this.#timer);
    this.#timer = 0;
    this.enabled = false;
  }

  /** The page's query parameters. */
  params() {
    return new URLSearchParams(window.location.search);
  }

  /**
   * Puts the committed scenario in the page's URL, just after the figures are updated:
   * pushState can take milliseconds in Chromium, which the reader would otherwise wait for.
   * Several commits before it runs make one history entry (the last scenario).
   * @param {() => import('../scenario.js').ScenarioState} currentState  read when the push runs
   */
  push(currentState) {
    if (!this.enabled || this.#timer) return;
    this.#timer = setTimeout(() => {
      this.#timer = 0;
      const url = this.permalink(currentState());
      if (url.href !== window.location.href) window.history.pushState({ prefillTrace: true }, '', url);
    }, 0);
  }

  /**
   * Makes the page's address name `state` without a new history entry (a host's scenario at start).
   * @param {import('../scenario.js').ScenarioState} state
   */
  replace(state) {
    if (!this.enabled) return;
    const url = this.permalink(state);
    if (url.href !== window.location.href) window.history.replaceState({ prefillTrace: true }, '', url);
  }

  /**
   * The link to `state`: the page's own URL when synced, else the lesson's page.
   * @param {import('../scenario.js').ScenarioState} state
   */
  permalink(state) {
    const base = this.enabled ? new URL(window.location.href) : assetUrl('index.html', this.assetBase);
    const params = toQuery(state, this.enabled ? base.searchParams : new URLSearchParams());
    base.search = params.toString();
    base.hash = '';
    return base;
  }
}

/**
 * The permalink's scenario. A value the engine rejects is reported (a note by field) and
 * replaced by the default for that field only, until the scenario computes.
 * @param {URLSearchParams} params
 * @param {import('../scenario.js').ScenarioState} defaults  the default state
 * @param {(json: string) => import('./trace-cache.js').TraceResult} compute  the engine's result for a scenario's JSON
 * @param {(state: import('../scenario.js').ScenarioState) => import('../scenario.js').ScenarioState} withPresetShape  the state with its preset model's shape
 * @returns {{state: import('../scenario.js').ScenarioState, notes: Record<string, string>, json: string, result: import('./trace-cache.js').TraceResult}}  the last computed
 *   scenario and its result (the render that follows reuses it)
 */
export function scenarioFromQuery(params, defaults, compute, withPresetShape) {
  let { state, fromUrl } = fromQuery(params, defaults);
  /** @type {Record<string, string>} */
  const notes = {};
  for (const key of [...fromUrl]) {
    const length = String(getField(state, key)).length;
    if (length <= MAX_FIELD_CHARS) continue;
    notes[key] = `the address gives it ${length} characters, more than the ${MAX_FIELD_CHARS} a field may have; the default is shown`;
    fromUrl.delete(key);
    state = withField(state, key, getField(defaults, key));
  }
  if (state.model !== CUSTOM_MODEL) state = withPresetShape(state);
  /** @type {string | undefined} */
  let json;
  /** @type {import('./trace-cache.js').TraceResult | undefined} */
  let result;
  for (let i = 0; i < MAX_REJECTED_FIELDS; i += 1) {
    json = scenarioJson(state);
    result = compute(json);
    if (result.ok) break;
    const key = fieldOfError(result.path);
    if (!key || !fromUrl.has(key)) break;
    notes[key] = result.error;
    fromUrl.delete(key);
    state = withField(state, key, getField(defaults, key));
    if (key === 'model') state = withPresetShape(state);
  }
  // MAX_REJECTED_FIELDS > 0: the loop ran at least once, so both are set.
  return { state, notes, json: /** @type {string} */ (json), result: /** @type {import('./trace-cache.js').TraceResult} */ (result) };
}
