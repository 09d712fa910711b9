// React 19 JSX for <prefill-trace-lesson>: `import type {} from "prefill-trace/element/react"`
// once in a project that has @types/react. Kept apart from prefill-trace-lesson.d.ts so that
// projects without React type-check the element's entry without @types/react.
// React 19 passes these props to the custom element (as properties where the element has one,
// else as attributes) and attaches `on<event-name>` functions as event listeners.
import type { DetailedHTMLProps, HTMLAttributes } from "react";
import type {
  PrefillTraceLesson,
  PrefillTraceLessonAttributes,
  PrefillTraceLessonEventMap,
  PrefillTraceProgress,
} from "./prefill-trace-lesson.js";

/** `onprefill-trace-ready={(event) => ...}` etc. */
export type PrefillTraceLessonEventProps = {
  [K in keyof PrefillTraceLessonEventMap as `on${K}`]?: (event: PrefillTraceLessonEventMap[K]) => void;
};

/**
 * Props React 19 sets as the element's properties (the element has them), so they take what the
 * property takes: `scenario` an object or JSON text, `progress` the saved answers (with
 * storage="none", the host hands them back this way).
 */
export interface PrefillTraceLessonPropertyProps {
  scenario?: string | Record<string, unknown>;
  progress?: PrefillTraceProgress;
}

export type PrefillTraceLessonProps = DetailedHTMLProps<HTMLAttributes<PrefillTraceLesson>, PrefillTraceLesson> &
  Omit<PrefillTraceLessonAttributes, "scenario"> &
  PrefillTraceLessonPropertyProps &
  PrefillTraceLessonEventProps;

declare module "react" {
  namespace JSX {
    interface IntrinsicElements {
      "prefill-trace-lesson": PrefillTraceLessonProps;
    }
  }
}
