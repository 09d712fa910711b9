// Vue 3 templates for <prefill-trace-lesson>: `import type {} from "prefill-trace/element/vue"`
// once in a project checked by vue-tsc (Volar). Vue renders the tag as a custom element when the
// compiler is told so (`compilerOptions.isCustomElement`, README); these declarations type its
// template props: attributes, `scenario` and `progress` (Vue sets them as properties, the
// element has them), and `@prefill-trace-…` listeners.
import type { DefineComponent } from "vue";
import type {
  PrefillTraceLessonAttributes,
  PrefillTraceLessonEventMap,
  PrefillTraceProgress,
} from "./prefill-trace-lesson.js";

/** "prefill-trace-ready" → "PrefillTraceReady": how Vue names a listener prop (`onPrefillTraceReady`). */
type Pascal<S extends string> = S extends `${infer Head}-${infer Tail}` ? `${Capitalize<Head>}${Pascal<Tail>}` : Capitalize<S>;

/** `@prefill-trace-ready="(event) => ..."` etc. */
export type PrefillTraceLessonVueEvents = {
  [K in keyof PrefillTraceLessonEventMap as `on${Pascal<K & string>}`]?: (event: PrefillTraceLessonEventMap[K]) => void;
};

export type PrefillTraceLessonVueProps = Omit<PrefillTraceLessonAttributes, "scenario"> & {
  /** An object or JSON text; host-owned (an equal value set again keeps the reader's edits). */
  scenario?: string | Record<string, unknown>;
  progress?: PrefillTraceProgress;
} & PrefillTraceLessonVueEvents;

declare module "vue" {
  interface GlobalComponents {
    "prefill-trace-lesson": DefineComponent<PrefillTraceLessonVueProps>;
  }
}
