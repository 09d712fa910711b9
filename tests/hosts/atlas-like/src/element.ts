// The lesson element bundled into the host's build, as a bundler consumer would take it (the
// npm package's element entry is the same module). Its assets are not in this bundle: they are
// served from the built site under /prefill-trace/, which the static property says — set once,
// before the first element connects.
import '../../../../web/src/main.js';
import type { PrefillTraceLessonConstructor } from '../../../../bindings/prefill-trace-lesson.js';
import type {} from '../../../../bindings/prefill-trace-lesson-react.js';

export const ASSET_BASE = '/prefill-trace/';

const PrefillTraceLesson = customElements.get('prefill-trace-lesson') as PrefillTraceLessonConstructor | undefined;
if (!PrefillTraceLesson) throw new Error('prefill-trace-lesson is not defined');
PrefillTraceLesson.assetBase = ASSET_BASE;
