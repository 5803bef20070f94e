// The package version, read once from package.json (no JSON import: keeps start-up cheap).
import { readFileSync } from "node:fs";
import { packageFile } from "./package-files.js";

let version: string | undefined;

export function readVersion(): string {
  version ??= (JSON.parse(readFileSync(packageFile("package.json"), "utf8")) as { version: string }).version;
  return version;
}

/**
 * The version and the build (dist/build.json, a digest of the built files) that cached verdicts are
 * keyed by: a refusal or a rejection is said again with its hints as they were, so another build of
 * the same version (a fix, other rules, other words) must ask again. Run from source: `source`.
 */
export function readCacheVersion(): string {
  let build = "source";
  try {
    const parsed = JSON.parse(readFileSync(packageFile("dist/build.json"), "utf8")) as { build?: unknown };
    if (typeof parsed.build === "string") build = parsed.build;
  } catch {
    // No build beside the code: run from source (the tests' unit runs).
  }
  return `${readVersion()}+${build}`;
}
