// <prefill-trace-lesson>: the lesson "Prefill and prompt processing" — the published lesson,
// the trace explorer and the checks — in a shadow root, so the host page's styles do not reach
// it and its styles do not reach the host. Embedding takes two tags:
//
//   <script type="module" src="…/app.js"></script>
//   <prefill-trace-lesson lesson-src="…/lesson.json"></prefill-trace-lesson>
//
// The host API (attributes, properties, events: element/host-api.js, README "Embedding in the
// Atlas"): `view` (full | lesson | explorer), `theme` (auto | light | dark), `header` (full |
// none: a host showing the lesson's title itself hides the element's), `lesson-src`,
// `scenario` (JSON text, the CLI's --scenario format), `storage` (local | none) with the
// `progress` property, `sync-url` (the element owns the page's URL: the scenario in the query
// string, `?lesson=`, the document title) and `asset-base` (where the built site lives, for a
// host that bundles app.js; `PrefillTraceLesson.assetBase` sets it for every element).
//
// `data-state` is `loading` until every shown part is drawn, then `ready`, or `error` when a
// part could not be shown (the rest still is; `prefill-trace-error` names the part). A change
// of `lesson-src`, `view`, `storage`, `sync-url` or `asset-base` makes a new rendering (the
// scenario and in-memory answers carry over); `theme` and `header` only restyle; `scenario` updates the
// explorer in place, unless it equals the host's last value (host-owned: see the setter). Removing the element releases everything it holds (element/mount.js).

import { LESSON_TIMEOUT_MS, MAX_LESSON_BYTES, SHADOW_STYLESHEET, defaultAssetBase, folderUrl, setDefaultAssetBase } from './config.js';
import { h } from './dom.js';
import {
  ATTRIBUTES,
  HEADER_VALUES,
  RELOADING,
  STORAGE_VALUES,
  THEME_VALUES,
  VIEW_VALUES,
  dispatch,
  enumValue,
} from './element/host-api.js';
import { describe } from './element/loading.js';
import { engineFactory, setEngineFactory } from './engine.js';
import { Mount } from './element/mount.js';
import { stylesheet } from './element/styles.js';
import { findPrerendered } from './prerendered.js';
import { scenarioShapeError } from './scenario.js';

// Under Node (a server rendering the host's page) there is no HTMLElement: the class is still
// defined, on a stand-in, so importing the element is harmless; main.js defines nothing there.
const ElementBase = globalThis.HTMLElement ?? class {};

export class PrefillTraceLesson extends ElementBase {
  static observedAttributes = ATTRIBUTES;

  /**
   * The longest the lesson file may take to arrive (ms), and the most bytes it may have; a host
   * (or a test) may lower or raise them before elements connect.
   */
  static lessonTimeoutMs = LESSON_TIMEOUT_MS;
  static maxLessonBytes = MAX_LESSON_BYTES;

  /** Where the built site (engine, chunks, style sheets, data) lives, for every element. */
  static get assetBase() {
    return defaultAssetBase().href;
  }

  static set assetBase(value) {
    setDefaultAssetBase(value);
  }

  /**
   * The engine's module factory the elements call instead of the package's own ES module
   * (`import PrefillTrace from 'prefill-trace'` has the same signature); null for the default.
   * Read when the first element loads the engine: set it before elements connect.
   */
  static get engineFactory() {
    return engineFactory();
  }

  static set engineFactory(factory) {
    setEngineFactory(factory);
  }

  /** @type {ShadowRoot | null} */
  #shadow = null;
  /** @type {Element | null} */
  #sheet = null;
  /** @type {string | null} */
  #sheetBase = null;
  /** @type {Promise<void> | null} */
  #styled = null;
  /** @type {Mount | null} */
  #mount = null;
  /** @type {HTMLElement | null} */
  #root = null;
  #generation = 0;
  // The scenario and answers that outlive one rendering (a new view keeps them).
  /** @type {unknown} */
  #scenario = null;
  /** @type {import('./progress.js').Answers | null} */
  #answers = null;
  #reflecting = false;
  // The last scenario the host set (attribute or property), as canonical JSON: setting an equal
  // one again changes nothing (#hostScenarioSet).
  /** @type {string | null} */
  #hostScenario = null;

  // The lesson built into the page (a declarative shadow root, prerendered.js), until the
  // first rendering takes it over.
  /** @type {import('./prerendered.js').Prerendered | null} */
  #prerendered = null;

  connectedCallback() {
    if (!this.#shadow) {
      // Read first: attachShadow() would empty a declarative shadow root.
      this.#prerendered = findPrerendered(this);
      this.#shadow = this.#prerendered?.shadow ?? this.attachShadow({ mode: 'open' });
      if (this.#prerendered) [this.#root, this.#sheet, this.#styled] = [this.#prerendered.root, this.#prerendered.sheet, Promise.resolve()];
    }
    this.#render();
  }

  disconnectedCallback() {
    this.#release();
  }

  /**
   * @param {string} name
   * @param {string | null} previous
   * @param {string | null} value
   */
  attributeChangedCallback(name, previous, value) {
    // (Before the first connection the rendering reads every attribute; a refused rendering,
    // #refuse, has no mount but must still follow a corrected attribute.)
    if (previous === value || !this.#shadow || !this.isConnected) return;
    if (RELOADING.has(name)) {
      this.#render();
    } else if (name === 'scenario' && !this.#reflecting) {
      this.#hostScenarioSet(value);
    }
  }

  // Properties mirroring the attributes.
  get lessonSrc() {
    return this.getAttribute('lesson-src') ?? '';
  }

  set lessonSrc(value) {
    this.setAttribute('lesson-src', String(value));
  }

  get view() {
    return enumValue(this.getAttribute('view'), VIEW_VALUES);
  }

  set view(value) {
    this.setAttribute('view', String(value));
  }

  get theme() {
    return enumValue(this.getAttribute('theme'), THEME_VALUES);
  }

  set theme(value) {
    this.setAttribute('theme', String(value));
  }

  get header() {
    return enumValue(this.getAttribute('header'), HEADER_VALUES);
  }

  set header(value) {
    this.setAttribute('header', String(value));
  }

  get storage() {
    return enumValue(this.getAttribute('storage'), STORAGE_VALUES);
  }

  set storage(value) {
    this.setAttribute('storage', String(value));
  }

  get syncUrl() {
    return this.hasAttribute('sync-url');
  }

  set syncUrl(value) {
    this.toggleAttribute('sync-url', Boolean(value));
  }

  get assetBase() {
    return this.getAttribute('asset-base') ?? '';
  }

  set assetBase(value) {
    this.setAttribute('asset-base', String(value));
  }

  get equationsSrc() {
    return this.getAttribute('equations-src') ?? '';
  }

  set equationsSrc(value) {
    this.setAttribute('equations-src', String(value));
  }

  /** The explorer's scenario as JSON text (the CLI's --scenario format). */
  get scenario() {
    const live = this.#mount?.scenario;
    return live ? JSON.stringify(live) : this.getAttribute('scenario') ?? '';
  }

  /**
   * Sets the explorer's scenario (JSON text, or an object, serialized). A value equal to the last
   * one the host set (as canonical JSON: key order and spacing aside) changes nothing, so a host
   * that sets it on every render (React, Vue: a new object each time) keeps the reader's edits;
   * a different value replaces them.
   */
  set scenario(value) {
    const text = typeof value === 'string' ? value : JSON.stringify(value);
    if (this.#hostScenario !== null && canonicalJson(text) === this.#hostScenario) return;
    this.setAttribute('scenario', text);
  }

  /**
   * The saved answers, `{[questionKey]: {answer, correct}}`: what `prefill-trace-answer`
   * reported. A host with storage="none" keeps them and hands them back here.
   */
  get progress() {
    return this.#mount?.answers ?? this.#answers ?? {};
  }

  /** @param {unknown} value */
  set progress(value) {
    this.#answers = value && typeof value === 'object' ? /** @type {import('./progress.js').Answers} */ (value) : null;
    if (this.#mount) this.#mount.answers = this.#answers;
  }

  /**
   * The asset base of this element: its attribute, else the document's; `{problem}` when the
   * attribute is not an http(s) address (nothing is then loaded from it, config.js fetchableUrl).
   */
  /** @returns {{base: URL, problem?: undefined} | {base: null, problem: string}} */
  #base() {
    const own = this.getAttribute('asset-base');
    if (!own) return { base: defaultAssetBase() };
    try {
      return { base: folderUrl(own) };
    } catch (error) {
      return { base: null, problem: describe(error) };
    }
  }

  #release() {
    if (!this.#mount) return;
    const scenario = this.#mount.scenario;
    if (scenario) this.#scenario = scenario;
    if (this.storage === 'none') this.#answers = this.#mount.answers;
    this.#mount.dispose();
    this.#mount = null;
  }

  /** The style sheet of the current asset base, linked once per base; hidden content until it applies. */
  /** @param {URL} base */
  #ensureStyles(base) {
    if (this.#sheet && (this.#sheetBase === base.href || this.#prerendered)) return;
    const sheet = stylesheet(SHADOW_STYLESHEET, base);
    if (this.#sheet) this.#sheet.replaceWith(sheet.link);
    else /** @type {ShadowRoot} */ (this.#shadow).prepend(sheet.link);
    this.#sheet = sheet.link;
    this.#sheetBase = base.href;
    this.#styled = sheet.loaded;
  }

  #render() {
    this.#release();
    const generation = ++this.#generation;
    this.setAttribute('data-state', 'loading');
    const { base, problem } = this.#base();
    if (base === null) {
      this.#refuse(problem);
      return;
    }
    this.#ensureStyles(base);
    const view = this.view;
    const prerendered = this.#prerendered;
    this.#prerendered = null;
    const root = prerendered?.root ?? this.#loadingRoot();
    const styled = /** @type {Promise<void>} */ (this.#styled).then(() => { // set by #ensureStyles
      root.hidden = false;
    });
    const mount = new Mount(
      {
        view,
        lessonSrc: this.getAttribute('lesson-src'),
        equationsSrc: this.getAttribute('equations-src'),
        syncUrl: this.syncUrl,
        storage: this.storage,
        base,
        timeoutMs: PrefillTraceLesson.lessonTimeoutMs,
        maxBytes: PrefillTraceLesson.maxLessonBytes,
        answers: this.#answers,
        shadow: /** @type {ShadowRoot} */ (this.#shadow),
        sheet: /** @type {Element} */ (this.#sheet),
        prerendered,
      },
      root,
      (name, detail) => this.#onMountEvent(name, detail),
    );
    this.#mount = mount;
    if (this.#scenario) mount.setScenario(this.#scenario);
    else if (this.hasAttribute('scenario')) this.#hostScenarioSet(this.getAttribute('scenario'));
    this.#settle(mount.run(styled), { mount, root, styled, generation, view });
  }

  /** A new root in the shadow root, hidden until the style sheet applies, saying the lesson is loading. */
  /** @returns {HTMLElement} */
  #loadingRoot() {
    const article = h('article', { class: 'lesson', part: 'lesson', 'aria-busy': 'true' }, h('p', { class: 'loading' }, 'Loading the lesson…'));
    const root = h('div', { class: 'ptl', hidden: true }, article);
    this.#root?.remove();
    this.#root = root;
    /** @type {ShadowRoot} */ (this.#shadow).append(root);
    return root;
  }

  /**
   * Once the rendering `run` is done (and still the current one): `data-state`, the engine's
   * version and the lesson's integrity, and `prefill-trace-ready` when every part is drawn. A
   * rendering that threw shows why in place of the lesson.
   */
  /**
   * @param {Promise<{state: string, lessonId: string | null} | null>} run
   * @param {{mount: Mount, root: HTMLElement, styled: Promise<void>, generation: number, view: string}} rendering
   */
  #settle(run, { mount, root, styled, generation, view }) {
    run
      .catch((/** @type {unknown} */ error) => {
        if (mount.signal.aborted) return null;
        dispatch(this, 'prefill-trace-error', { part: 'lesson', message: describe(error) });
        root.replaceChildren(
          h('article', { class: 'lesson', part: 'lesson' }, h('div', { class: 'page-error', role: 'alert' }, h('h2', {}, 'The lesson could not be shown'), h('p', {}, describe(error)))),
        );
        return { state: 'error', lessonId: null };
      })
      .then(async (result) => {
        if (!result || generation !== this.#generation) return;
        await styled;
        if (mount.engineVersion) this.dataset.engineVersion = mount.engineVersion;
        if (mount.integrity) this.dataset.lessonIntegrity = mount.integrity;
        this.setAttribute('data-state', result.state);
        if (result.state === 'ready') dispatch(this, 'prefill-trace-ready', { lessonId: result.lessonId, view });
      });
  }

  /**
   * Settles as `error` without loading anything: the element cannot know where its engine and
   * styles are. The message takes the place of the lesson (styled from the document's asset
   * base, when that has the style sheet).
   */
  /** @param {string} problem */
  #refuse(problem) {
    this.#ensureStyles(defaultAssetBase());
    const root = h(
      'div',
      { class: 'ptl' },
      h(
        'article',
        { class: 'lesson', part: 'lesson' },
        h('div', { class: 'page-error', role: 'alert' }, h('h2', {}, 'The lesson could not be loaded'), h('p', {}, problem)),
      ),
    );
    this.#root?.remove();
    this.#root = root;
    /** @type {ShadowRoot} */ (this.#shadow).append(root);
    this.setAttribute('data-state', 'error');
    dispatch(this, 'prefill-trace-error', { part: 'asset-base', message: problem });
  }

  /**
   * @param {string} name
   * @param {Record<string, unknown>} detail
   */
  #onMountEvent(name, detail) {
    if (name === 'prefill-trace-scenario-change') {
      this.#scenario = detail.scenario;
      // Reflected so the attribute always says what is shown; not read back as a host change.
      this.#reflecting = true;
      this.setAttribute('scenario', JSON.stringify(detail.scenario));
      this.#reflecting = false;
    }
    dispatch(this, name, detail);
  }

  /**
   * A scenario the host set: shown unless it equals (canonical JSON) the last one the host set,
   * which the reader may have edited since.
   * @param {string | null} text
   */
  #hostScenarioSet(text) {
    const canonical = canonicalJson(text ?? '');
    if (canonical === this.#hostScenario) return;
    this.#hostScenario = canonical;
    this.#applyScenarioText(text);
  }

  /**
   * A host-set `scenario`: parsed, then shown in the explorer (or kept for it).
   * @param {string | null} text
   */
  #applyScenarioText(text) {
    if (text === null || text.trim() === '') return;
    let parsed;
    try {
      parsed = JSON.parse(text);
    } catch (error) {
      dispatch(this, 'prefill-trace-error', { part: 'scenario', message: `scenario: invalid JSON (${describe(error)})` });
      return;
    }
    // Its shape (an object of known fields) is checked now, whether or not an explorer exists
    // yet: "null" or an array was once kept silently for an explorer that then ignored it.
    const shapeError = scenarioShapeError(parsed);
    if (shapeError) {
      dispatch(this, 'prefill-trace-error', { part: 'scenario', message: `scenario ${shapeError}` });
      return;
    }
    if (!this.#mount) {
      // No rendering to show it (a refused asset-base): kept for the next one.
      this.#scenario = parsed;
      return;
    }
    const result = this.#mount.setScenario(parsed);
    if (!result.ok) {
      dispatch(this, 'prefill-trace-error', { part: 'scenario', message: `scenario ${result.error}` });
      return;
    }
    this.#scenario = parsed;
  }
}

/**
 * `text` as canonical JSON (object keys sorted at every depth, no spacing), to tell whether two
 * host values are the same scenario; text that is not JSON stays as it is (it cannot equal
 * canonical JSON).
 * @param {string} text
 */
function canonicalJson(text) {
  let value;
  try {
    value = JSON.parse(text);
  } catch {
    return text;
  }
  /** @type {(v: unknown) => unknown} */
  const sorted = (v) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.keys(v).sort().map((key) => [key, sorted(/** @type {Record<string, unknown>} */ (v)[key])]))
      : Array.isArray(v) ? v.map(sorted) : v;
  return JSON.stringify(sorted(value));
}
