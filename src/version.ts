// The package version, read once from package.json (no JSON import: keeps start-up cheap).
import { readFileSync } from "node:fs";

let version: string | undefined;

export function readVersion(): string {
  version ??= (
    JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { version: string }
  ).version;
  return version;
}
