// Shared by the corpus generators (bad-lessons/ and good-lessons/make-corpus.mjs): each case is
// the published lesson's text, or the published lesson parsed, changed and re-serialized, written
// beside the generator; finish() removes files that are no longer cases and writes the index.
import { readFileSync, writeFileSync, readdirSync, unlinkSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
export const publishedText = readFileSync(
  path.join(root, "lesson-data/prefill-resource-trace-a76d037833bd69f7.json"), "utf8");

/** A corpus in the folder of `moduleUrl`, indexed by `indexName`: case file name → note. */
export function corpus(moduleUrl, indexName) {
  const here = path.dirname(fileURLToPath(moduleUrl));
  const cases = {};
  const add = (name, content, note) => {
    cases[name] = note;
    writeFileSync(path.join(here, name), content);
  };
  const mutate = (name, change, note) => {
    const value = JSON.parse(publishedText);
    change(value);
    add(name, JSON.stringify(value), note);
  };
  const finish = () => {
    for (const file of readdirSync(here)) {
      if (file.endsWith(".json") && file !== indexName && !(file in cases)) unlinkSync(path.join(here, file));
    }
    writeFileSync(path.join(here, indexName), JSON.stringify(cases, null, 2) + "\n");
    console.log(`${Object.keys(cases).length} cases`);
  };
  return { add, mutate, finish };
}
