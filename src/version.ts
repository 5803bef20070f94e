// The package version, read once from package.json (no JSON import: keeps start-up cheap).
import { readFileSync } from "node:fs";
import { packageFile } from "./package-files.js";

let version: string | undefined;

export function readVersion(): string {
  version ??= (JSON.parse(readFileSync(packageFile("package.json"), "utf8")) as { version: string }).version;
  return version;
}
