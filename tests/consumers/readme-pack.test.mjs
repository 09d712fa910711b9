// The README's command for making the npm tarball works as written (issue 24, N1). npm reads a
// bare "build/npm" as the GitHub repository build/npm (npm 11 then fails looking it up); only a
// path starting with "./", "../" or "/" is a folder. Needs script/package (build/npm).
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { test } from "node:test";

import { repo } from "../browser/helpers.mjs";

test("the README's npm pack command packs build/npm", () => {
  assert.ok(existsSync(path.join(repo, "build/npm/package.json")), "build/npm is missing: run script/package first");
  const readme = readFileSync(path.join(repo, "README.md"), "utf8");
  const commands = [...readme.matchAll(/`npm pack ([^`]+)`/g)].map((match) => match[1].trim().split(/\s+/));
  assert.ok(commands.length >= 1, "the README names an npm pack command");
  for (const args of commands) {
    // --dry-run: npm resolves and lists the package without writing the tarball.
    const out = execFileSync("npm", ["pack", "--dry-run", "--json", ...args], {
      cwd: repo, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], timeout: 60_000,
    });
    const [packed] = JSON.parse(out);
    assert.equal(packed.name, "prefill-trace", args.join(" "));
  }
});
