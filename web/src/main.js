// Entry point of app.js: defines <prefill-trace-lesson>. A page shows the lesson with two tags,
// this script (type="module") and the element; see element.js.

import { PrefillTraceLesson } from './element.js';

if (!customElements.get('prefill-trace-lesson')) {
  customElements.define('prefill-trace-lesson', PrefillTraceLesson);
}
