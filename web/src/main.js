// Entry point of app.js: defines <prefill-trace-lesson>. A page shows the lesson with two tags,
// this script (type="module") and the element; see element.js.

import { PrefillTraceLesson } from './element.js';

// Nothing is defined where there is no custom-element registry (Node, when a server renders the
// host's page): importing app.js there is harmless.
if (globalThis.customElements && !customElements.get('prefill-trace-lesson')) {
  customElements.define('prefill-trace-lesson', PrefillTraceLesson);
}
