// One rendering of <prefill-trace-lesson>: for a given view, lesson address, storage mode and
// asset base, it loads what that view shows — and nothing else — and puts it in the shadow
// root; dispose() releases everything it holds (fetches, observers, timers, listeners). The
// element (element.js) makes a new Mount when an attribute that changes what is loaded
// changes, and disposes of it when the element leaves the document.
//
// Views: `full` (the published lesson with the explorer after "The mechanism" and the
// generated checks after the published ones), `lesson` (the published lesson alone: no
// explorer, no charts module), `explorer` (the explorer and its checks: the lesson file, the
// equations and KaTeX are not fetched). The explorer belongs to the lesson
// `prefill-resource-trace`: another lesson renders as a lesson alone.
//
// Each part fails alone: the explorer draws as soon as the engine is ready, while the lesson
// file may still be arriving; a lesson that cannot be loaded or validated shows a message in
// its place and the explorer works on.

import {
  DEFAULT_LESSON_PATH,
  EQUATIONS_PATH,
  EXPLORER_LESSON_ID,
  MAX_COMPANION_BYTES,
  PROGRESS_STORAGE_KEY,
  RELATED_LESSONS_PATH,
  assetUrl,
  fetchableUrl,
} from '../config.js';
import { h } from '../dom.js';
import { loadEngine } from '../engine.js';
import { typesetEquations } from '../equation.js';
import { GeneratedChecks, ProgressSummary } from '../explorer/checks.js';
import { Explorer } from '../explorer/explorer.js';
import { Investigations } from '../investigations/investigations.js';
import { checksSection } from '../lesson-view.js';
import { keepBuiltInWithoutEngine, placeExplorer, rendersFile } from '../prerendered.js';
import { ProgressStore } from '../progress.js';
import { answerQuiz } from '../quiz.js';
import { scenarioObject, scenarioShapeError, stateFromScenario, toQuery } from '../scenario.js';
import { claimedLessonId, equationsUrl, lessonAddress, lessonSource, ownOrigin } from './lesson-address.js';
import { errorBlock, renderLessonPart, resetQuiz } from './lesson-part.js';
import { PartError, carriedData, describe, fetchLesson, fetchOptionalJson, lessonFromBytes } from './loading.js';
import { loadKatexStyles } from './styles.js';
import { nextTask } from '../explorer/scheduling.js';
import { ENGINE_WARM_UP, PLANS } from './plan.js';
/** @typedef {import('../engine.js').Engine} Engine */ /** @typedef {import('./plan.js').Step} Step */ /** @typedef {{json: unknown, problem?: string}} Companion */

/** Thrown by a step once the rendering is disposed of: the run stops there (#step, stoppable). */
const STOPPED = Symbol('the rendering was disposed of');

/** What `work()` settles to, or null when it stopped because its rendering was disposed of. @template T @param {() => Promise<T>} work @returns {Promise<T | null>} */
async function stoppable(work) {
  try {
    return await work();
  } catch (error) {
    if (error === STOPPED) return null;
    throw error;
  }
}

export class Mount {
  #abort = new AbortController();
  #options;
  #root;
  #emit;
  #engine = /** @type {Engine | null} */ (null);
  #explorer = /** @type {Explorer | null} */ (null);
  #investigations = /** @type {Investigations | null} */ (null);
  #generated = /** @type {GeneratedChecks | null} */ (null);
  #summary = /** @type {ProgressSummary | null} */ (null);
  #progress;
  #failed = /** @type {string[]} */ ([]);
  #publishedForms = /** @type {Map<string, HTMLFormElement>} */ (new Map());
  #pendingScenario = /** @type {unknown} */ (null);
  /** Why stored progress was discarded, once it was (the progress line says so). */
  #discarded = /** @type {string | null} */ (null);
  /** The lesson file's integrity status (lesson-file.js), once known. */
  integrity = /** @type {string | null} */ (null);
  /** The engine's version, once it has loaded. */
  engineVersion = /** @type {string | null} */ (null);

  /**
   * @param {object} options
   * @param {'full'|'lesson'|'explorer'} options.view
   * @param {string|null} options.lessonSrc      the attribute's value (resolved against the page)
   * @param {string|null} options.equationsSrc   the `equations-src` attribute's value
   * @param {boolean} options.syncUrl
   * @param {'local'|'none'} options.storage
   * @param {URL} options.base                   the asset base
   * @param {number} options.timeoutMs           the lesson fetch's time limit
   * @param {number} options.maxBytes            the lesson file's size limit
   * @param {object|null} [options.initialState]  the explorer's scenario to start from
   * @param {import('../progress.js').Answers|null} options.answers  progress handed back by the host
   * @param {ShadowRoot} options.shadow
   * @param {Element} options.sheet              the lesson's style sheet (KaTeX's goes before it)
   * @param {import('../prerendered.js').Prerendered|null} options.prerendered  the lesson built into the page (prerendered.js)
   * @param {HTMLElement} root   where the rendering goes
   * @param {(name: string, detail: Record<string, unknown>) => void} emit   dispatches one of the element's events
   */
  constructor(options, root, emit) {
    this.#options = options;
    this.#root = root;
    this.#emit = emit;
    this.#progress = new ProgressStore(PROGRESS_STORAGE_KEY, {
      persist: options.storage !== 'none',
      onSave: (questionKey, answer, correct) => emit('prefill-trace-answer', { questionKey, correct, answer }),
      onUnavailable: () => this.#summary?.storageUnavailable(),
      onDiscarded: (reason) => {
        this.#discarded = reason;
        console.warn(`Saved answers discarded: ${reason}`);
        this.#summary?.storageDiscarded(reason);
      },
      // Another element or tab answered or forgot: the checks shown follow the stored answers.
      onExternalChange: () => this.#showStoredAnswers(),
    });
    if (options.answers) this.#progress.replaceAnswers(options.answers);
  }

  get signal() { return this.#abort.signal; }

  /** Releases everything this rendering holds; it never renders again. */
  dispose() {
    this.#abort.abort();
    this.#progress.close();
    this.#explorer?.dispose();
    this.#explorer = null;
    this.#investigations?.dispose();
    this.#generated = null;
    this.#publishedForms.clear();
  }

  /** The explorer's scenario (engine JSON keys), or null when no explorer is shown. */
  get scenario() {
    return this.#explorer ? scenarioObject(this.#explorer.state) : null;
  }

  /**
   * Shows `scenario` (a parsed CLI --scenario object) in the explorer; before the explorer
   * exists, it is kept for it. @param {unknown} scenario @returns {{ok: boolean, error?: string}}
   */
  setScenario(scenario) {
    if (!this.#explorer) {
      // Its shape is checked now (null, an array, an unknown field), its values by the engine
      // once the explorer is made.
      const error = scenarioShapeError(scenario);
      if (error) return { ok: false, error };
      this.#pendingScenario = scenario;
      return { ok: true };
    }
    const result = stateFromScenario(scenario, this.#explorer.defaults);
    if (!result.ok) return result;
    this.#explorer.setState(result.state);
    return { ok: true };
  }

  /** The saved answers, `{[questionKey]: {answer, correct}}`. */
  get answers() {
    return this.#progress.answers();
  }

  /** Replaces the saved answers and shows them on every check already drawn. @param {import('../progress.js').Answers | null} answers */
  set answers(answers) {
    this.#progress.replaceAnswers(answers);
    this.#showStoredAnswers();
  }

  /** Shows the stored answers on every check already drawn. */
  #showStoredAnswers() {
    if (this.signal.aborted) return;
    for (const [key, form] of this.#publishedForms) {
      resetQuiz(form);
      const saved = this.#progress.get(key);
      if (saved) answerQuiz(form, saved.answer);
    }
    if (this.#generated && this.#explorer) {
      this.#generated.forget();
      this.#generated.update(JSON.stringify(scenarioObject(this.#explorer.state)));
    }
    this.#investigations?.showStored();
  }

  /** Notes a broken part: the element's state becomes `error`, and the host hears of it. @param {string} part @param {unknown} error */
  #fail(part, error) {
    if (this.signal.aborted) return;
    const message = describe(error);
    this.#failed.push(part);
    this.#emit('prefill-trace-error', { part, message });
  }

  /**
   * Loads and draws the view; settles once every part is drawn (including what is drawn after
   * the first trace: the explorer's charts and checks, the typeset equation). The view's plan
   * (plan.js) says what is loaded and placed, in what order; each step runs through #step.
   * @param {Promise<void>} styled  settles when the lesson's style sheet has loaded
   * @returns {Promise<{state: 'ready'|'error', lessonId: string|null}|null>}  null once disposed of
   */
  async run(styled) {
    this.#styled = styled;
    return stoppable(async () => {
      for (const step of PLANS[this.#options.view]) {
        const outcome = await this.#step(step.task, () => step.part && /** @type {(step: Step) => Promise<unknown>} */ (this.#parts[step.part][/** @type {'load' | 'place'} */ (step.action)])(step));
        if (outcome) return /** @type {{state: 'ready' | 'error', lessonId: string | null}} */ (outcome);
      }
      throw new Error(`The plan of the ${this.#options.view} view ended without an outcome`);
    });
  }

  /** The parts a plan names, each with the same two actions (plan.js). */
  #parts = /** @type {Record<NonNullable<Step['part']>, Partial<Record<'load' | 'place', (step: Step) => unknown>>>} */ ({
    engine: { load: () => this.#loadEngine(), place: () => this.#placeEngine() },
    lesson: { load: () => this.#loadLesson(), place: () => this.#placeLesson() },
    explorer: { place: (step) => this.#placeExplorer(step) },
    equations: { place: () => this.#placeEquations() },
  });

  /**
   * Begins `task` (a task of its own, explorer/scheduling.js nextTask; none when null), runs
   * `work` and returns what it returns; throws STOPPED instead once the rendering is disposed of,
   * before or after the work. @template T @param {string | null} task @param {() => T} [work] @returns {Promise<Awaited<T>>}
   */
  async #step(task, work = /** @type {() => T} */ (() => {})) {
    if (task) await nextTask(task);
    this.#live();
    return this.#wait(work());
  }

  /** What `promise` settles to, once it has; throws STOPPED if the rendering was disposed of meanwhile. @template T @param {T} promise @returns {Promise<Awaited<T>>} */
  async #wait(promise) {
    const value = await promise;
    this.#live();
    return value;
  }

  /** Throws STOPPED once the rendering is disposed of: nothing more is drawn or reported. */
  #live() {
    if (this.signal.aborted) throw STOPPED;
  }

  /** The rendering's outcome once every part is drawn: `error` when one of them broke. @param {string | null} lessonId @returns {{state: 'ready' | 'error', lessonId: string | null}} */
  #outcome(lessonId) {
    return { state: this.#failed.length ? 'error' : 'ready', lessonId };
  }

  // What the parts' load actions started and their place actions wait for.
  #styled = /** @type {Promise<void> | null} */ (null);
  #engineLoaded = /** @type {Promise<Engine> | null} */ (null);
  #lessonUrl = /** @type {URL | null} */ (null);
  #lessonFile = /** @type {Promise<{text: string, integrity: import('./loading.js').Integrity, finalUrl: URL}> | null} */ (null);
  #companions = /** @type {Promise<[Companion, Companion]> | null} */ (null);
  /** Settles when every part of the explorer is drawn (#showExplorer), or null. */
  #explorerShown = /** @type {Promise<unknown> | null} */ (null);
  /** The lesson and its article, once placed. */
  #lesson = /** @type {import('../lesson-view.js').Lesson | null} */ (null);
  #article = /** @type {HTMLElement | null} */ (null);

  // This task evaluated app.js and adopted the lesson. The engine comes next, in a task of its
  // own (it downloads and compiles off the main thread while the rest runs; the first fetch()
  // of a page costs a phone-speed CPU 10-30 ms), then the lesson's requests.
  #loadEngine() {
    const loaded = (this.#engineLoaded = loadEngine(this.#options.base));
    loaded.catch(() => {}); // awaited when placed
  }

  /** Waits for the engine; without it nothing but a message (or the built-in lesson) is shown. */
  async #placeEngine() {
    let engine;
    try {
      engine = /** @type {Engine} */ (await this.#engineLoaded); // started by #loadEngine
    } catch (error) {
      this.#live();
      await this.#wait(this.#styled);
      this.#fail('engine', error);
      if (this.#adopting) {
        // The lesson built into the page stays readable; the explorer's place says why it is empty.
        keepBuiltInWithoutEngine(this.#adopting, errorBlock('The trace explorer could not start', `The WebAssembly module failed to load: ${describe(error)}.`));
        return { state: 'error', lessonId: null };
      }
      const message =
        `The WebAssembly module failed to load: ${describe(error)}. ` + 'The lesson (which the engine validates) and the trace explorer need it.';
      this.#root.replaceChildren(h('article', { class: 'lesson', part: 'lesson' }, errorBlock('The lesson engine could not start', message)));
      return { state: 'error', lessonId: null };
    }
    // The engine was instantiated in this task; each step after it is a task of its own.
    await this.#step('engine-ready', () => {
      this.#engine = engine;
      this.engineVersion = engine.version();
    });
    return null;
  }

  /** Requests the lesson file and its companions (the equation pack, the related lessons). */
  #loadLesson() {
    const { base, timeoutMs, maxBytes, view, prerendered } = this.#options;
    const signal = this.signal;
    try {
      this.#lessonUrl = lessonAddress(this.#options);
      const url = this.#lessonUrl;
      // The element's own lesson (no lesson-src, no ?lesson=) as app.js carries it, if it does.
      const carried = lessonSource(this.#options) ? undefined : carriedData(DEFAULT_LESSON_PATH, url, base);
      this.#lessonFile =
        carried === undefined
          ? fetchLesson(url, { timeoutMs, maxBytes, signal, ownOrigin: ownOrigin(url, base) })
          : lessonFromBytes(url, new TextEncoder().encode(carried)).then((file) => ({ ...file, finalUrl: url }));
    } catch (error) {
      this.#lessonFile = Promise.reject(error);
    }
    /** @type {Promise<unknown>} */ (this.#lessonFile).catch(() => {}); // awaited when placed, after the explorer is drawn
    const companion = (/** @type {URL} */ url, /** @type {string} */ path) => {
      const json = carriedData(path, url, base);
      if (json !== undefined) return Promise.resolve(/** @type {Companion} */ ({ json }));
      return fetchOptionalJson(url, { signal, timeoutMs, maxBytes: MAX_COMPANION_BYTES, ownOrigin: ownOrigin(url, base) });
    };
    let equations;
    try {
      equations = companion(equationsUrl(this.#options), EQUATIONS_PATH);
    } catch (error) {
      // An address that is no URL (equations-src="http://["): the equations alone go without.
      equations = Promise.resolve({ json: null, problem: describe(error) });
    }
    this.#companions = Promise.all([equations, companion(assetUrl(RELATED_LESSONS_PATH, base), RELATED_LESSONS_PATH)]);
    // The lesson built into the page, if it is this view's and this file's: adopted, not redrawn.
    this.#adopting = view === 'full' && rendersFile(prerendered, this.#lessonUrl) ? prerendered : null;
  }

  /**
   * Shows the explorer unless the lesson is known to be another one: a published file name says
   * which lesson it holds before it arrives; another name waits for the lesson (#placeLesson). @param {Step} step
   */
  async #placeExplorer({ lead, refuseOtherLesson, last }) {
    if (refuseOtherLesson) {
      const refused = await this.#refuseOtherLesson();
      if (refused) return refused;
    }
    const claimedId = this.#lessonUrl ? claimedLessonId(this.#lessonUrl) : EXPLORER_LESSON_ID;
    if (refuseOtherLesson || claimedId === EXPLORER_LESSON_ID) {
      await this.#wait(this.#styled);
      this.#explorerShown = this.#showExplorer(lead === 'loading' ? h('p', { class: 'loading' }, 'Loading the lesson…') : null);
    }
    if (!last) return null;
    await this.#explorerShown;
    return this.#outcome(EXPLORER_LESSON_ID);
  }

  /**
   * The explorer view does not fetch the lesson; a published name for another lesson is refused
   * rather than shown beside the wrong lab (the outcome, then). An address that is no URL names
   * no lesson: the explorer, which does not need it, is shown, and the host told.
   */
  async #refuseOtherLesson() {
    if (!this.#options.lessonSrc) return null;
    let other = null;
    try {
      other = claimedLessonId(fetchableUrl(this.#options.lessonSrc, 'lesson-src'));
    } catch (error) {
      this.#fail('lesson', error);
    }
    if (!other || other === EXPLORER_LESSON_ID) return null;
    await this.#styled;
    const problem = `The explorer belongs to the lesson ${EXPLORER_LESSON_ID}; lesson-src names ${other}.`;
    this.#fail('explorer', problem);
    this.#root.replaceChildren(h('article', { class: 'lesson lesson--explorer', part: 'lesson' }, errorBlock('There is no explorer for this lesson', problem)));
    return { state: 'error', lessonId: other };
  }

  /** The lesson, validated by the engine, drawn around the explorer (or in its place). */
  async #placeLesson() {
    const { lesson, text, integrity, problem } = await this.#validatedLesson();
    if (integrity) this.integrity = integrity.status;
    const [{ json: equationPack, problem: packProblem }, { json: relatedFile }] = await this.#wait(/** @type {Promise<[Companion, Companion]>} */ (this.#companions));
    await this.#wait(this.#styled);
    // The explorer is built over several tasks: what follows expects it in place.
    await this.#wait(this.#explorerPlaced);

    if (this.#adopting && !(lesson && integrity?.status === 'verified')) {
      // Not the bytes the build rendered (or they could not be checked): drawn from the file.
      this.#leaveBuiltIn();
    }
    if (!lesson) return this.#showLessonProblem(/** @type {PartError} */ (problem));
    await this.#matchExplorerTo(lesson);
    // The equations need their pack: without it they are shown as text, with the reason, and
    // the host hears of it; the rest of the lesson is unaffected. (The lesson built into the
    // page has its equations typeset already.)
    if (packProblem && !this.#adopting && Array.isArray(lesson.science) && lesson.science.length) this.#fail('equations', packProblem);
    const article = this.#renderLesson({ lesson, text: /** @type {string} */ (text), lessonUrl: /** @type {URL} */ (this.#lessonUrl), integrity, equationPack: /** @type {Record<string, unknown> | null} */ (equationPack), relatedFile: /** @type {{lessons?: unknown} | null} */ (relatedFile), packProblem: packProblem ?? null });
    article.setAttribute('aria-busy', 'true');
    if (article.parentNode !== this.#root) this.#root.replaceChildren(article);
    await this.#explorerShown;
    article.removeAttribute('aria-busy');
    this.#live();
    this.#lesson = lesson;
    this.#article = article;
    return null;
  }

  /** `{lesson, text, integrity}` once the file has arrived and the engine has validated it, else `{problem, integrity}`. @returns {Promise<{lesson: import('../lesson-view.js').Lesson, text: string, integrity: import('./loading.js').Integrity | null, problem?: undefined} | {lesson: null, text?: undefined, problem: PartError, integrity: import('./loading.js').Integrity | null | undefined}>} */
  async #validatedLesson() {
    let integrity = null;
    try {
      const file = /** @type {{text: string, integrity: import('./loading.js').Integrity}} */ (await this.#lessonFile); // requested by #loadLesson
      integrity = file.integrity;
      // Validating the lesson is 50-60 ms of wasm at 4x (parsing, checking, writing it back
      // as JSON, compiling those functions on first use): a task of its own.
      const validated = await this.#step('lesson-validate', () => /** @type {Engine} */ (this.#engine).loadLesson(file.text));
      if (!validated.ok) throw new PartError('This lesson file is not valid', validated.error);
      return { lesson: /** @type {import('../lesson-view.js').Lesson} */ (validated.lesson), text: file.text, integrity };
    } catch (error) {
      this.#live();
      const problem = error instanceof PartError ? error : new PartError('The lesson could not be shown', describe(error));
      return { lesson: null, problem, integrity: /** @type {PartError} */ (error)?.integrity ?? integrity };
    }
  }

  /** A lesson that could not be shown: its message in its place; the explorer, if any, works on. @param {PartError} problem */
  async #showLessonProblem(problem) {
    this.#fail('lesson', problem.message);
    if (!this.#explorer && this.#options.view !== 'lesson' && !this.#explorerShown) {
      // Another kind of file name: the explorer waited for the lesson, which never came.
      this.#explorerShown = this.#showExplorer(errorBlock(problem.title, problem.message));
    } else if (this.#explorer) {
      this.#placeholder?.replaceWith(errorBlock(problem.title, problem.message));
    } else {
      this.#root.replaceChildren(h('article', { class: 'lesson lesson--partial', part: 'lesson' }, errorBlock(problem.title, problem.message)));
    }
    await this.#explorerShown;
    return { state: 'error', lessonId: null };
  }

  /** The explorer goes with its own lesson only: removed beside another, made when the name did not say. @param {import('../lesson-view.js').Lesson} lesson */
  async #matchExplorerTo(lesson) {
    if (lesson.id !== EXPLORER_LESSON_ID && this.#explorer) {
      // The file name did not say; the lesson does: no explorer beside another lesson.
      this.#explorer.dispose();
      this.#explorer = null;
      this.#generated = null;
      this.#explorerShown = null;
    } else if (lesson.id === EXPLORER_LESSON_ID && !this.#explorer && this.#options.view === 'full') {
      this.#explorerShown = this.#showExplorer(null);
      await this.#wait(this.#explorerPlaced);
    }
  }

  /** Below the first screen, after the first trace: KaTeX, loaded only when an equation is shown. */
  async #placeEquations() {
    const { shadow, sheet, base, syncUrl } = this.#options;
    const [article, lesson] = [/** @type {HTMLElement} */ (this.#article), /** @type {import('../lesson-view.js').Lesson} */ (this.#lesson)]; // placed by #placeLesson
    await this.#wait(typesetEquations(article, () => loadKatexStyles(shadow, sheet, base), { signal: this.signal }));
    if (syncUrl) document.title = `${lesson.name} · AI Machinery Atlas`;
    return this.#outcome(lesson.id);
  }

  #placeholder = /** @type {HTMLElement | null} */ (null);
  /** Settles once the explorer being made is in the page (#showExplorer). */
  #explorerPlaced = /** @type {Promise<void> | null} */ (null);

  /**
   * Makes the explorer and its checks and shows them (in a frame that `lead` heads: the
   * lesson's loading note or error); settles when every part of it is drawn. The warm-up calls,
   * the presets, the explorer's making and its first drawing are tasks of their own. @param {HTMLElement | null} lead
   */
  #showExplorer(lead) {
    let placed = () => {};
    this.#explorerPlaced = new Promise((resolve) => {
      placed = () => resolve(undefined);
    });
    // (Also when it stops early: nothing waits for a part that will not come.)
    return stoppable(() => this.#makeExplorer(lead, placed)).finally(placed);
  }

  /** @param {HTMLElement | null} lead @param {() => void} placed */
  async #makeExplorer(lead, placed) {
    const engine = /** @type {Engine} */ (this.#engine); // placed by #placeEngine first
    for (const [task, call] of ENGINE_WARM_UP) await this.#step(task, () => call(engine));
    const presets = await this.#step('presets', () => engine.listPresets());
    const explorerNode = await this.#step('explorer-build', () => this.#buildExplorer(presets));
    // The guided investigations (they drive the explorer, keep predictions like answers) in a task of their own.
    await this.#step('explorer-investigations', () => {
      const explorer = this.#explorer;
      if (!explorer) return; // (no presets: the explorer is a message)
      this.#investigations?.dispose();
      this.#investigations = new Investigations({ engine, explorer, compare: explorer.compare, progress: this.#progress });
      explorer.view.showInvestigations(this.#investigations.element);
    });
    if (this.#adopting) {
      placeExplorer(this.#adopting, {
        explorer: explorerNode,
        progress: this.#generated ? /** @type {ProgressSummary} */ (this.#summary).element : null,
        extraChecks: this.#generated?.element ?? null,
      });
    } else {
      this.#showPartial(lead, explorerNode);
    }
    placed();
    const explorer = this.#explorer;
    if (!explorer) return;
    this.#applyPendingScenario();
    await explorer.start();
    await explorer.fullyShown();
  }

  /** The explorer, its checks and the investigations made (not yet in the page); its node, or a message without presets. @param {ReturnType<Engine['listPresets']>} presets */
  #buildExplorer(presets) {
    const engine = /** @type {Engine} */ (this.#engine);
    const summary = (this.#summary = this.#newSummary());
    if (!presets.ok) {
      const problem = `The engine could not list its presets: ${presets.error}`;
      this.#fail('explorer', problem);
      return h(
        'section',
        { id: 'explorer', class: 'explorer', part: 'explorer', 'aria-label': 'Trace explorer' },
        errorBlock('The trace explorer could not start', problem),
      );
    }
    const generated = (this.#generated = new GeneratedChecks({ engine, progress: this.#progress, summary }));
    const explorer = (this.#explorer = new Explorer({
      engine,
      presets: presets.value,
      syncUrl: this.#options.syncUrl,
      assetBase: this.#options.base,
      onScenario: (json) => this.#generated?.update(json),
      onCommit: (state) => this.#emit('prefill-trace-scenario-change', { scenario: scenarioObject(state), query: toQuery(state).toString() }),
      onError: (part, message) => this.#fail(part, message),
      scenarioElement: generated.element,
    }));
    const node = explorer.element;
    node.setAttribute('part', 'explorer');
    node.querySelector('.explorer-controls')?.setAttribute('part', 'controls');
    explorer.view.chartsBlock.setAttribute('part', 'charts');
    return node;
  }

  /** The scenario the host set before the explorer existed, shown now (quietly: no change event). */
  #applyPendingScenario() {
    const explorer = this.#explorer;
    if (!this.#pendingScenario || !explorer) return; // (called once the explorer is made)
    const result = stateFromScenario(this.#pendingScenario, explorer.defaults);
    this.#pendingScenario = null;
    if (result.ok) explorer.setState(result.state, { quiet: true });
    else this.#fail('scenario', result.error);
  }

  /** The explorer (and its checks) in an article of their own, headed by `lead`. @param {HTMLElement | null} lead @param {HTMLElement} explorerNode */
  #showPartial(lead, explorerNode) {
    this.#placeholder = lead;
    this.#root.replaceChildren(
      h(
        'article',
        { class: lead ? 'lesson lesson--partial' : 'lesson lesson--explorer', part: 'lesson' },
        lead,
        explorerNode,
        this.#generated ? checksSection(/** @type {ProgressSummary} */ (this.#summary).element, this.#generated.element) : null,
      ),
    );
  }

  /** Stops adopting the built-in lesson: the explorer, if shown, moves to an article of its own. */
  #leaveBuiltIn() {
    this.#adopting = null;
    if (this.#explorer) this.#showPartial(h('p', { class: 'loading' }, 'Loading the lesson…'), this.#explorer.element);
  }

  #adopting = /** @type {import('../prerendered.js').Prerendered | null} */ (null);

  /** @param {import('./lesson-part.js').LessonPart} lessonPart */
  #renderLesson(lessonPart) {
    const summary = (this.#summary = (this.#explorer ? this.#summary : null) ?? this.#newSummary());
    return renderLessonPart(lessonPart, {
      engine: /** @type {Engine} */ (this.#engine),
      progress: this.#progress,
      summary,
      adopting: this.#adopting,
      explorer: this.#explorer?.element ?? null,
      extraChecks: this.#generated?.element ?? null,
      signal: this.signal,
      publishedForms: this.#publishedForms,
    });
  }

  /** The progress line, saying where answers go (storage="local" that cannot store says so). */
  #newSummary() {
    const storage = this.#options.storage === 'none' ? 'none' : this.#progress.remembers ? 'local' : 'unavailable';
    const summary = new ProgressSummary(() => this.#forgetAnswers(), storage);
    if (this.#discarded) summary.storageDiscarded(this.#discarded);
    return summary;
  }

  #forgetAnswers() {
    this.#progress.clear();
    this.#summary?.reset();
    for (const form of this.#root.querySelectorAll('form.quiz')) resetQuiz(/** @type {HTMLFormElement} */ (form));
    this.#investigations?.reset();
    this.#emit('prefill-trace-progress-reset', {});
  }
}
