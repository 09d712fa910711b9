// Regenerates the corpus of lessons the Atlas lesson contract accepts although they differ from
// the published prefill lesson in a way a stricter reader might refuse:
//   node tests/data/good-lessons/make-corpus.mjs
// Each case is one file, and cases.json says which relaxation it shows and which Atlas gate
// allows it (docs/robustness.md, "The lesson contract"). Every file must load: the C++ suite
// (tests/cpp/lesson_test.cpp), the CLI and the wasm module (tests/js/good-input.test.mjs) and
// the page (tests/browser/good-lessons.test.mjs) each read them all.
import { corpus, publishedText as text } from "../lesson-corpus.mjs";

const { add, mutate, finish } = corpus(import.meta.url, "cases.json");

const further = (options, answer) => ({
  question: "Which quantity grows with the prompt length T?",
  options,
  answer,
  explanation: "Projection work is 2·T·d_in·d_out, linear in T.",
});
mutate("checks-two-options.json", (l) => (l.checks = [further(["Projection FLOPs", "The parameter count"], 0)]),
    "reader: a further check needs only options.length >= 2");
mutate("checks-four-options.json",
    (l) => (l.checks = [further(["The parameter count", "The vocabulary", "The layer count", "Projection FLOPs"], 3)]),
    "reader: a further check may have more than 3 options (CI limits only the main check to 3)");
mutate("checks-empty.json", (l) => (l.checks = []), "reader: checks is optional; an empty array passes every()");
mutate("interface-directions.json", (l) => {
  l.interfaces[0].direction = "bidirectional";
  l.interfaces[1].direction = "";
}, "reader: rows(interfaces, ['name','direction','signal']) checks only that direction is a string");
mutate("empty-tradeoff.json", (l) => (l.tradeoff = ""), "reader: tradeoff is a required string, not a non-empty one");
mutate("empty-spec-context.json", (l) => (l.specs[0].context = ""), "reader: spec context is only typed as a string");
mutate("empty-content-strings.json", (l) => {
  Object.assign(l, { level: "", whyAI: "", scale: " ", kind: "", misconception: "\n" });
  l.specs[1].label = "";
  l.interfaces[0].signal = "";
  l.sources[0].title = "";
  l.mechanism[4] = "";
  l.science[0].assumptions = "";
  l.check.options[1] = "";
  l.check.explanation = "";
  l.related.push("");
  l.prerequisites.push("");
}, "reader: only the type of these strings is checked; publish and CI require non-blank text only of id, name, shortName, role, description, learningObjective, engineeringExample, evidenceNotes");
mutate("https-url-with-space.json", (l) => (l.sources[0].url = "https://arxiv.org/abs/2205.14135 (v2)"),
    "CI: ref.url.startsWith('https://') is the only URL rule");
mutate("https-prefix-only.json", (l) => (l.sources[1].url = "https://"), "CI: ref.url.startsWith('https://') is the only URL rule");
add("answer-zero-float.json", text.replace('"answer":0,', '"answer":0.0,'),
    "reader: a JSON 0.0 is the JavaScript number 0, and Number.isInteger(0) holds");
add("answer-exponent.json", text.replace('"answer":0,', '"answer":0e5,'),
    "reader: 0e5 is the JavaScript number 0");
mutate("history.json", (l) => (l.history = [
  { year: 1947, title: "Point-contact transistor", significance: "Solid-state amplification",
    source: { title: "Nobel Prize in Physics 1956", url: "https://www.nobelprize.org/prizes/physics/1956/summary/" } },
  { year: "c. 2022", title: "", significance: "", source: { title: "", url: "http://example.org/not-https" } },
]), "reader: history entries need year (string or finite number), title, significance and source {title, url} strings; no URL scheme rule");
mutate("history-empty.json", (l) => (l.history = []), "reader: history is optional; an empty array passes every()");
mutate("no-optional-metadata.json", (l) => {
  for (const key of ["branch", "subbranch", "workstream", "visualFamily", "labId", "deepLabId", "investigationId", "scope", "labScope"]) delete l[key];
}, "reader: these members are checked only when present (value[key]!==undefined)");
mutate("scope-not-a-string.json", (l) => (l.scope = { note: ["no gate checks scope"] }),
    "none of the three gates reads scope");
mutate("non-trim-characters.json", (l) => {
  l.name = "\u200b";
  l.shortName = "\u0085";
}, "publish: String.prototype.trim() keeps U+200B and U+0085 (neither is ECMAScript white space), so the text is not blank");
mutate("unknown-fields.json", (l) => {
  l.addedInAtlas2 = { anything: [1, null, true] };
  l.check.hint = "extra member of a check";
}, "reader: members it does not name are not checked");

finish();
