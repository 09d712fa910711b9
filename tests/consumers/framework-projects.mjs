// Framework consumer projects (Next.js, Parcel, Vite 7 + Vue, Angular): each framework's own
// dependencies, pinned to exact versions, are installed once from the npm registry into a cached
// project folder outside the repository, named by a hash of those versions
// (~/.cache/prefill-trace-consumers/<name>-<hash>, or $PREFILL_TRACE_CONSUMER_CACHE/…), so a re-run
// of the tests installs nothing but the freshly packed tarball. A changed version makes a new
// folder (the old one can be deleted by hand). The first install needs the registry; later runs
// do not.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import path from "node:path";

import { repo } from "../browser/helpers.mjs";

const cacheRoot = process.env.PREFILL_TRACE_CONSUMER_CACHE ?? path.join(homedir(), ".cache/prefill-trace-consumers");

// Child processes print plain text (see npm.test.mjs: CI's colours broke readiness matches).
const { FORCE_COLOR: _ignoredForceColor, ...callerEnv } = process.env;
export const plainEnv = { ...callerEnv, NO_COLOR: "1", NEXT_TELEMETRY_DISABLED: "1", NG_CLI_ANALYTICS: "false" };

/** The packed tarball of build/npm (script/package), made once per process into `work`. */
export function packTarball(work) {
  const npmPackage = path.join(repo, "build/npm");
  if (!existsSync(path.join(npmPackage, "package.json"))) throw new Error("build/npm is missing: run script/package first");
  const name = execFileSync("npm", ["pack", npmPackage, "--pack-destination", work, "--silent"], { cwd: work, encoding: "utf8" })
    .trim().split("\n").pop();
  return path.join(work, name);
}

/**
 * Every framework project's dependencies, exact versions (the newest of each line on 2026-12-05).
 * React 19.3 for both Next.js lines (Next 15.5 and 16 take React 19).
 */
export const PROJECTS = {
  next15: { next: "15.5.29", react: "19.3.1", "react-dom": "19.3.1" },
  next16: { next: "16.5.0", react: "19.3.1", "react-dom": "19.3.1" },
  parcel: { parcel: "2.16.4" },
  vue: { vite: "7.3.8", vue: "3.5.47", "@vitejs/plugin-vue": "6.1.1", "vue-tsc": "3.3.14", typescript: "5.9.3" },
  // Angular 21, the newest line that runs on the project's Node 20 (Angular 22 needs Node 22);
  // zoneless by default (no zone.js); TypeScript 5.9 as for Vue (its compiler takes 5.9 to 6.0).
  angular: {
    "@angular/build": "21.2.30", "@angular/cli": "21.2.29", "@angular/common": "21.2.26", "@angular/compiler": "21.2.26",
    "@angular/compiler-cli": "21.2.26", "@angular/core": "21.2.26", "@angular/platform-browser": "21.2.26",
    rxjs: "7.8.2", tslib: "2.9.1", typescript: "5.9.3",
  },
};

/**
 * A project folder with `dependencies` (exact versions) installed, reused while they stay the
 * same, and the tarball installed fresh; returns the folder and how long the registry install took
 * (0 when cached).
 */
export function frameworkProject(name, dependencies, tarball) {
  const { dir, installSeconds } = installDependencies(name, dependencies);
  // The package under test: installed anew each run, without touching the cached dependencies'
  // lock (--no-save), offline (the tarball has no dependencies).
  execFileSync("npm", ["install", "--no-save", "--offline", "--no-audit", "--no-fund", "--loglevel=error", tarball],
    { cwd: dir, stdio: ["ignore", "pipe", "pipe"], env: plainEnv });
  return { dir, installSeconds };
}

/** The cached folder with `dependencies` installed (from the registry the first time). */
export function installDependencies(name, dependencies) {
  const key = createHash("sha256").update(JSON.stringify(dependencies)).digest("hex").slice(0, 12);
  const dir = path.join(cacheRoot, `${name}-${key}`);
  let installSeconds = 0;
  if (!existsSync(path.join(dir, ".installed"))) {
    const started = Date.now();
    const stage = `${dir}.tmp-${process.pid}`;
    rmSync(stage, { recursive: true, force: true });
    mkdirSync(stage, { recursive: true });
    writeFileSync(path.join(stage, "package.json"), JSON.stringify({ name: `consumer-${name}`, private: true, type: "module", dependencies }, null, 2));
    execFileSync("npm", ["install", "--no-audit", "--no-fund", "--loglevel=error"], { cwd: stage, stdio: ["ignore", "pipe", "pipe"], env: plainEnv });
    writeFileSync(path.join(stage, ".installed"), `${new Date().toISOString()}\n`);
    rmSync(dir, { recursive: true, force: true });
    renameSync(stage, dir);
    installSeconds = (Date.now() - started) / 1000;
  }
  return { dir, installSeconds };
}

/** Removes what a previous run wrote into a cached project (its sources and builds), keeping node_modules. */
export function cleanProject(dir, keep = ["node_modules", "package.json", "package-lock.json", ".installed"]) {
  for (const entry of readdirSync(dir)) {
    if (!keep.includes(entry)) rmSync(path.join(dir, entry), { recursive: true, force: true });
  }
}
