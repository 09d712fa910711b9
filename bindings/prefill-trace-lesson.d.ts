// Type declarations for <prefill-trace-lesson>, the lesson element defined by app.js (the npm
// package's "prefill-trace/element" entry). Importing the entry defines the element and exports
// nothing; these declarations type the tag (document.createElement, querySelector), its
// attributes, properties and events. React 19's JSX: prefill-trace-lesson-react.d.ts.
// The surface is https://github.com/SemiAIFoundry/prefill-trace/blob/main/web/src/element/host-api.js and https://github.com/SemiAIFoundry/prefill-trace#embedding-in-the-atlas.

/** `view`: the whole page, the published lesson only, or the explorer and its checks only. */
export type PrefillTraceView = "full" | "lesson" | "explorer";
/** `theme`: follow the reader's setting, or force light or dark. */
export type PrefillTraceTheme = "auto" | "light" | "dark";
/** `header`: the lesson's own title, trail and Atlas link, or none (the host shows its own). */
export type PrefillTraceHeader = "full" | "none";
/** `storage`: keep answers in localStorage, or nowhere (the host keeps them: `progress`). */
export type PrefillTraceStorage = "local" | "none";

/** `prefill-trace-ready`: every shown part is drawn. */
export interface PrefillTraceReadyDetail {
  lessonId: string;
  view: PrefillTraceView;
}
/**
 * `prefill-trace-error`: one part could not be shown (the rest still is). `asset-base`: the
 * attribute is no http(s) address, and nothing was loaded; `equations`: the equation pack could
 * not be had (the equations are shown as text).
 */
export interface PrefillTraceErrorDetail {
  part: "lesson" | "engine" | "explorer" | "charts" | "scenario" | "equations" | "asset-base";
  message: string;
}
/** `prefill-trace-scenario-change`: the reader committed a change in the explorer. */
export interface PrefillTraceScenarioChangeDetail {
  /** The scenario (the CLI's --scenario format, https://github.com/SemiAIFoundry/prefill-trace/blob/main/docs/trace-json.md). */
  scenario: Record<string, unknown>;
  /** The permalink query string of that scenario. */
  query: string;
}
/** `prefill-trace-answer`: a check was answered. */
export interface PrefillTraceAnswerDetail {
  questionKey: string;
  correct: boolean;
  /** The chosen option's 0-based index, or the number entered for a numeric check. */
  answer: number;
}
/** Saved answers by question key: what `prefill-trace-answer` reported. */
export type PrefillTraceProgress = Record<string, { answer: number; correct: boolean }>;

/** The element's events: all bubble and are composed (they reach the document). */
export interface PrefillTraceLessonEventMap {
  "prefill-trace-ready": CustomEvent<PrefillTraceReadyDetail>;
  "prefill-trace-error": CustomEvent<PrefillTraceErrorDetail>;
  "prefill-trace-scenario-change": CustomEvent<PrefillTraceScenarioChangeDetail>;
  "prefill-trace-answer": CustomEvent<PrefillTraceAnswerDetail>;
  "prefill-trace-progress-reset": CustomEvent<Record<string, never>>;
}

/** Attributes, as written in HTML (and as JSX props). */
export interface PrefillTraceLessonAttributes {
  /** The lesson file (same origin), resolved against the page. Default: the bundled lesson. */
  "lesson-src"?: string;
  view?: PrefillTraceView;
  theme?: PrefillTraceTheme;
  header?: PrefillTraceHeader;
  /** The explorer's scenario as JSON text (the CLI's --scenario format). */
  scenario?: string;
  storage?: PrefillTraceStorage;
  /** Present: the element keeps the scenario in the page URL (off when the host owns the URL). */
  "sync-url"?: boolean | "";
  /** Folder of the element's files (style sheets, the engine's .wasm, lesson data) when a host
   *  serves them itself (esbuild, Rollup); webpack 5 and Vite emit them without it. */
  "asset-base"?: string;
  /** An Atlas equation pack ({lessonId: [{latex, variables, text}]}), same origin, for other
   *  lessons' science equations. Default: the bundled pack. */
  "equations-src"?: string;
}

/** An instance of <prefill-trace-lesson>. `data-state` is "loading", "ready" or "error". */
export interface PrefillTraceLesson extends HTMLElement {
  lessonSrc: string;
  view: PrefillTraceView;
  theme: PrefillTraceTheme;
  header: PrefillTraceHeader;
  storage: PrefillTraceStorage;
  syncUrl: boolean;
  assetBase: string;
  equationsSrc: string;
  /**
   * The explorer's scenario: JSON text (the reader's edits included); an object is accepted and
   * serialized. Host-owned: a value equal to the last one the host set (as canonical JSON: key
   * order and spacing aside) changes nothing, so re-rendering with an inline object keeps the
   * reader's edits; a different value replaces them.
   */
  get scenario(): string;
  set scenario(value: string | Record<string, unknown>);
  progress: PrefillTraceProgress;

  addEventListener<K extends keyof PrefillTraceLessonEventMap>(
    type: K,
    listener: (this: PrefillTraceLesson, event: PrefillTraceLessonEventMap[K]) => unknown,
    options?: boolean | AddEventListenerOptions,
  ): void;
  addEventListener<K extends keyof HTMLElementEventMap>(
    type: K,
    listener: (this: PrefillTraceLesson, event: HTMLElementEventMap[K]) => unknown,
    options?: boolean | AddEventListenerOptions,
  ): void;
  addEventListener(
    type: string,
    listener: EventListenerOrEventListenerObject,
    options?: boolean | AddEventListenerOptions,
  ): void;
  removeEventListener<K extends keyof PrefillTraceLessonEventMap>(
    type: K,
    listener: (this: PrefillTraceLesson, event: PrefillTraceLessonEventMap[K]) => unknown,
    options?: boolean | EventListenerOptions,
  ): void;
  removeEventListener<K extends keyof HTMLElementEventMap>(
    type: K,
    listener: (this: PrefillTraceLesson, event: HTMLElementEventMap[K]) => unknown,
    options?: boolean | EventListenerOptions,
  ): void;
  removeEventListener(
    type: string,
    listener: EventListenerOrEventListenerObject,
    options?: boolean | EventListenerOptions,
  ): void;
}

/** The element's class, as `customElements.get("prefill-trace-lesson")` returns it. */
export interface PrefillTraceLessonConstructor {
  new (): PrefillTraceLesson;
  readonly prototype: PrefillTraceLesson;
  readonly observedAttributes: readonly string[];
  /** Where the built site lives, for every element without its own `asset-base`. */
  get assetBase(): string;
  set assetBase(value: string | URL);
  /** The longest the lesson file may take to arrive (ms), and the most bytes it may have. */
  lessonTimeoutMs: number;
  maxLessonBytes: number;
  /**
   * The engine's module factory the elements call instead of the package's own ES module (same
   * signature as `import PrefillTrace from "prefill-trace"`): a host that wraps the engine.
   * Read when the first element loads the engine; null for the default.
   */
  engineFactory: ((options: { locateFile?: (path: string) => string }) => Promise<object>) | null;
}

declare global {
  interface HTMLElementTagNameMap {
    "prefill-trace-lesson": PrefillTraceLesson;
  }
  // Bubbling and composed, the events reach every ancestor and the document.
  interface GlobalEventHandlersEventMap extends PrefillTraceLessonEventMap {}
}
