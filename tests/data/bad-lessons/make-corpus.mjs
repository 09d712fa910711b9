// Regenerates the malformed-lesson corpus beside this script from the published lesson:
//   node tests/data/bad-lessons/make-corpus.mjs
// Each case is one file plus its expected error line in expected.json. Two cases are too big to
// commit (a 50 MB string, 100 000 nested arrays); bad-lessons.test.mjs builds those at run time.
import { readFileSync, writeFileSync, readdirSync, unlinkSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, "../../..");
const text = readFileSync(path.join(root, "lesson-data/prefill-resource-trace-a76d037833bd69f7.json"), "utf8");
const lesson = () => JSON.parse(text);
const cases = {};

function add(name, content, error) {
  cases[name] = error;
  writeFileSync(path.join(here, name), content);
}
function mutate(name, change, error) {
  const value = lesson();
  change(value);
  add(name, JSON.stringify(value), error);
}

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

for (const key of ["id", "name", "shortName", "role", "description", "learningObjective", "engineeringExample", "evidenceNotes"]) {
  mutate(`missing-${key}.json`, (l) => delete l[key], `/${key}: is required`);
}
mutate("empty-name.json", (l) => (l.name = ""), "/name: must be a non-empty string");
mutate("blank-role.json", (l) => (l.role = " \n\t"), "/role: must be a non-empty string");
mutate("number-id.json", (l) => (l.id = 42), "/id: must be a string, not integer");
mutate("null-description.json", (l) => (l.description = null), "/description: must be a string, not null");
mutate("array-tradeoff.json", (l) => (l.tradeoff = ["a"]), "/tradeoff: must be a string, not array");
for (const key of ["specs", "interfaces", "related", "sources", "mechanism"]) {
  mutate(`missing-${key}.json`, (l) => delete l[key], `/${key}: is required`);
  mutate(`object-${key}.json`, (l) => (l[key] = {}), `/${key}: must be an array, not object`);
}
mutate("two-mechanism-steps.json", (l) => (l.mechanism = l.mechanism.slice(0, 2)), "/mechanism: must hold at least 3 steps, not 2");
mutate("mechanism-number.json", (l) => (l.mechanism[2] = 3), "/mechanism/2: must be a string, not integer");
mutate("no-sources.json", (l) => (l.sources = []), "/sources: must list at least one source");
mutate("http-source.json", (l) => (l.sources[0].url = "http://arxiv.org/abs/2205.14135"), "/sources/0/url: must be an https:// URL");
mutate("javascript-source.json", (l) => (l.sources[1].url = "javascript:alert(document.cookie)"), "/sources/1/url: must be an https:// URL");
mutate("data-source.json", (l) => (l.sources[0].url = "data:text/html,<script>alert(1)</script>"), "/sources/0/url: must be an https:// URL");
mutate("spec-missing-value.json", (l) => delete l.specs[1].value, "/specs/1/value: is required");
mutate("interface-direction.json", (l) => (l.interfaces[0].direction = "inout"), '/interfaces/0/direction: must be "in" or "out"');
mutate("missing-check.json", (l) => delete l.check, "/check: is required");
mutate("check-string.json", (l) => (l.check = "why?"), "/check: must be an object, not string");
mutate("two-options.json", (l) => l.check.options.pop(), "/check/options: must hold exactly 3 options, not 2");
mutate("four-options.json", (l) => l.check.options.push("Four"), "/check/options: must hold exactly 3 options, not 4");
const answerError = "/check/answer: must be an integer index into /check/options (3 items)";
mutate("answer-minus-one.json", (l) => (l.check.answer = -1), answerError);
mutate("answer-three.json", (l) => (l.check.answer = 3), answerError);
mutate("answer-half.json", (l) => (l.check.answer = 0.5), answerError);
mutate("answer-string.json", (l) => (l.check.answer = "0"), answerError);
mutate("answer-missing.json", (l) => delete l.check.answer, "/check/answer: is required");
mutate("empty-option.json", (l) => (l.check.options[1] = ""), "/check/options/1: must be a non-empty string");
mutate("checks-bad-answer.json", (l) => (l.checks = [{ ...l.check, answer: 7 }]),
    "/checks/0/answer: must be an integer index into /checks/0/options (3 items)");
mutate("science-missing-equation.json", (l) => delete l.science[0].equation, "/science/0/equation: is required");
mutate("prerequisites-object.json", (l) => (l.prerequisites = { a: 1 }), "/prerequisites: must be an array, not object");
add("answer-zero-float.json", text.replace('"answer":0,', '"answer":0.0,'), answerError);
add("huge-number.json", text.replace('"answer":0,', '"answer":1e999,'), null);

for (const file of readdirSync(here)) {
  if (file.endsWith(".json") && file !== "expected.json" && !(file in cases)) unlinkSync(path.join(here, file));
}
// null: a syntax error, whose message starts "byte N: invalid JSON" (the offset is nlohmann's).
writeFileSync(path.join(here, "expected.json"), JSON.stringify(cases, null, 2) + "\n");
console.log(`${Object.keys(cases).length} cases`);
