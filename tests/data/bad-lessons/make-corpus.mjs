// Regenerates the malformed-lesson corpus beside this script from the published lesson:
//   node tests/data/bad-lessons/make-corpus.mjs
// Each case is one file plus its expected error line in expected.json. Two cases are too big to
// commit (a 50 MB string, 100 000 nested arrays); tests/js/bad-input.test.mjs builds those at
// run time. Every rule of the Atlas lesson contract (docs/robustness.md, "The lesson contract")
// has at least one case here; what the contract allows is in ../good-lessons/.
import { corpus, publishedText as text } from "../lesson-corpus.mjs";

const { add, mutate, finish } = corpus(import.meta.url, "expected.json");

// Syntax: byte offsets are nlohmann's (1-based position after the byte it stopped on).
add("truncated.json", text.slice(0, 1000), null);
add("empty-file.json", "", null);
add("trailing-garbage.json", text + "x", null);
add("bom.json", "\uFEFF" + text, "byte 0: a UTF-8 byte-order mark is not allowed before the JSON text");
add("invalid-utf8.json", Buffer.concat([Buffer.from('{"id": "'), Buffer.from([0xc3, 0x28]), Buffer.from('"}')]), null);
add("not-json.json", "<html>lesson</html>", null);
add("top-level-array.json", "[]", "/: the lesson must be a JSON object, not array");
add("top-level-string.json", '"lesson"', "/: the lesson must be a JSON object, not string");
add("duplicate-key.json", text.replace('{"id":"prefill-resource-trace",', '{"id":"prefill-resource-trace","id":"other",'),
    "/id: duplicate key (the object already has this member)");
add("duplicate-nested-key.json", text.replace('"answer":0,', '"answer":0,"answer":1,'),
    "/check/answer: duplicate key (the object already has this member)");

// Reader (lesson-contract.ts): these members are strings; the publish step
// (generate-catalog.mjs) also requires learningObjective, engineeringExample and evidenceNotes.
for (const key of ["id", "level", "name", "shortName", "role", "description", "tradeoff", "whyAI", "scale", "kind",
  "misconception", "learningObjective", "engineeringExample", "evidenceNotes"]) {
  mutate(`missing-${key}.json`, (l) => delete l[key], `/${key}: is required`);
}
// Publish step: r[key].trim() must leave something (JavaScript's trim: Unicode spaces too).
mutate("empty-name.json", (l) => (l.name = ""), "/name: must be a non-empty string");
mutate("blank-role.json", (l) => (l.role = " \n\t"), "/role: must be a non-empty string");
mutate("unicode-blank-evidenceNotes.json", (l) => (l.evidenceNotes = "\u00a0\u3000\u2029\ufeff"),
    "/evidenceNotes: must be a non-empty string");
mutate("number-id.json", (l) => (l.id = 42), "/id: must be a string, not integer");
mutate("null-description.json", (l) => (l.description = null), "/description: must be a string, not null");
mutate("array-tradeoff.json", (l) => (l.tradeoff = ["a"]), "/tradeoff: must be a string, not array");
mutate("number-scale.json", (l) => (l.scale = 1), "/scale: must be a string, not integer");
// Reader: optional metadata is a string when present (null is not undefined).
mutate("null-labScope.json", (l) => (l.labScope = null), "/labScope: must be a string, not null");
mutate("number-branch.json", (l) => (l.branch = 7), "/branch: must be a string, not integer");
// Reader + publish step: the list fields are arrays (prerequisites too: Array.isArray at publish).
for (const key of ["specs", "interfaces", "related", "sources", "mechanism", "prerequisites", "science"]) {
  mutate(`missing-${key}.json`, (l) => delete l[key], `/${key}: is required`);
  mutate(`object-${key}.json`, (l) => (l[key] = {}), `/${key}: must be an array, not object`);
}
mutate("two-mechanism-steps.json", (l) => (l.mechanism = l.mechanism.slice(0, 2)), "/mechanism: must hold at least 3 steps, not 2");
mutate("mechanism-number.json", (l) => (l.mechanism[2] = 3), "/mechanism/2: must be a string, not integer");
mutate("related-null-item.json", (l) => (l.related[1] = null), "/related/1: must be a string, not null");
mutate("prerequisites-false-item.json", (l) => (l.prerequisites = [false]), "/prerequisites/0: must be a string, not boolean");
mutate("no-sources.json", (l) => (l.sources = []), "/sources: must list at least one source");
const httpsError = '/url: must start with "https://"';
mutate("http-source.json", (l) => (l.sources[0].url = "http://arxiv.org/abs/2205.14135"), "/sources/0" + httpsError);
mutate("javascript-source.json", (l) => (l.sources[1].url = "javascript:alert(document.cookie)"), "/sources/1" + httpsError);
mutate("data-source.json", (l) => (l.sources[0].url = "data:text/html,<script>alert(1)</script>"), "/sources/0" + httpsError);
mutate("uppercase-https-source.json", (l) => (l.sources[0].url = "HTTPS://arxiv.org/abs/2205.14135"), "/sources/0" + httpsError);
mutate("leading-space-source.json", (l) => (l.sources[0].url = " https://arxiv.org/abs/2205.14135"), "/sources/0" + httpsError);
mutate("source-title-object.json", (l) => (l.sources[0].title = { bad: true }), "/sources/0/title: must be a string, not object");
mutate("spec-missing-value.json", (l) => delete l.specs[1].value, "/specs/1/value: is required");
mutate("spec-context-number.json", (l) => (l.specs[0].context = 5), "/specs/0/context: must be a string, not integer");
mutate("spec-string.json", (l) => (l.specs[0] = "Work unit"), "/specs/0: must be an object, not string");
mutate("interface-direction-number.json", (l) => (l.interfaces[0].direction = 1), "/interfaces/0/direction: must be a string, not integer");
mutate("missing-check.json", (l) => delete l.check, "/check: is required");
mutate("check-string.json", (l) => (l.check = "why?"), "/check: must be an object, not string");
mutate("check-true.json", (l) => (l.check = true), "/check: must be an object, not boolean");
mutate("check-missing-explanation.json", (l) => delete l.check.explanation, "/check/explanation: is required");
mutate("check-options-null.json", (l) => (l.check.options = null), "/check/options: must be an array, not null");
mutate("check-option-number.json", (l) => (l.check.options[2] = 2), "/check/options/2: must be a string, not integer");
// CI (validate-atlas.mjs): the main check has exactly 3 options and an answer in 0..2.
mutate("two-options.json", (l) => l.check.options.pop(), "/check/options: must hold exactly 3 options, not 2");
mutate("four-options.json", (l) => l.check.options.push("Four"), "/check/options: must hold exactly 3 options, not 4");
const answerError = "/check/answer: must be an integer index into /check/options (3 items)";
mutate("answer-minus-one.json", (l) => (l.check.answer = -1), answerError);
mutate("answer-three.json", (l) => (l.check.answer = 3), answerError);
mutate("answer-half.json", (l) => (l.check.answer = 0.5), answerError);
mutate("answer-string.json", (l) => (l.check.answer = "0"), answerError);
mutate("answer-true.json", (l) => (l.check.answer = true), answerError);
mutate("answer-missing.json", (l) => delete l.check.answer, "/check/answer: is required");
// Reader: checks, when present, is an array of checks with at least 2 options each.
mutate("checks-true.json", (l) => (l.checks = true), "/checks: must be an array, not boolean");
mutate("checks-false-entry.json", (l) => (l.checks = [false]), "/checks/0: must be an object, not boolean");
mutate("checks-one-option.json", (l) => (l.checks = [{ ...l.check, options: ["Only"], answer: 0 }]),
    "/checks/0/options: must hold at least 2 options, not 1");
mutate("checks-bad-answer.json", (l) => (l.checks = [{ question: "x", explanation: "x", options: ["a", "b"], answer: 9 }]),
    "/checks/0/answer: must be an integer index into /checks/0/options (2 items)");
// CI: at least one science entry; reader: each has four strings.
mutate("no-science.json", (l) => (l.science = []), "/science: must hold at least one entry");
mutate("science-missing-equation.json", (l) => delete l.science[0].equation, "/science/0/equation: is required");
mutate("science-fields-missing.json", (l) => (l.science = [{ title: "Missing fields" }]), "/science/0/equation: is required");
mutate("prerequisites-object.json", (l) => (l.prerequisites = { a: 1 }), "/prerequisites: must be an array, not object");
// Reader: history, when present, is an array of {year: string|number, title, significance, source: {title, url}}.
const event = { year: 1947, title: "Point-contact transistor", significance: "Solid-state amplification",
  source: { title: "Nobel Prize in Physics 1956", url: "https://www.nobelprize.org/prizes/physics/1956/summary/" } };
mutate("history-number.json", (l) => (l.history = 3), "/history: must be an array, not integer");
mutate("history-null-source.json", (l) => (l.history = [{ ...event, source: null }]), "/history/0/source: must be an object, not null");
mutate("history-source-missing-url.json", (l) => (l.history = [event, { ...event, source: { title: "t" } }]), "/history/1/source/url: is required");
mutate("history-year-boolean.json", (l) => (l.history = [{ ...event, year: true }]), "/history/0/year: must be a string or a number, not boolean");
mutate("history-missing-significance.json", (l) => (l.history = [{ ...event, significance: undefined }]), "/history/0/significance: is required");
add("huge-number.json", text.replace('"answer":0,', '"answer":1e999,'), null);

// null: a syntax error, whose message starts "byte N: invalid JSON" (the offset is nlohmann's).
finish();
