import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { CONTENT_RULES } from "../../src/secrets/content-rules.js";
import type { Finding } from "../../src/secrets/finding.js";
import { createContentScanner } from "../../src/secrets/scanner.js";
import { testEnv } from "../helpers/repo.js";

const FIXTURES = join(import.meta.dirname, "..", "fixtures", "secrets");

interface ManifestRow {
  path: string;
  expected: "exclude" | "flag" | "keep";
  reason: string;
}

/** expected-manifest.tsv: `path<TAB>expected<TAB>reason`, `#` comments. */
function readManifest(): ManifestRow[] {
  return readFileSync(join(FIXTURES, "expected-manifest.tsv"), "utf8")
    .split("\n")
    .filter((line) => line !== "" && !line.startsWith("#"))
    .map((line) => {
      const [path, expected, reason] = line.split("\t");
      return { path, expected, reason } as ManifestRow;
    });
}

const manifest = readManifest();
// `exclude` rows are decided by name before any content is read (src/secrets/names.ts).
const scanned = manifest.filter((row) => row.expected !== "exclude");
const ruleIds = CONTENT_RULES.map((rule) => rule.id);

describe("secret corpus (make-secret-repo.sh)", () => {
  let root: string;
  let repo: string;
  const findings = new Map<string, Finding[]>();

  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), "review-remote-secret-corpus-"));
    repo = join(root, "repo");
    execFileSync("bash", [join(FIXTURES, "make-secret-repo.sh"), repo], {
      env: testEnv(root),
      stdio: "ignore",
    });
    const scanner = createContentScanner();
    for (const row of scanned) {
      const content = readFileSync(join(repo, row.path));
      const file = scanner.scanFile(row.path);
      for (let offset = 0; offset < content.length; offset += 4096)
        file.write(content.subarray(offset, offset + 4096));
      findings.set(row.path, file.end());
    }
  });

  afterAll(() => {
    if (root) rmSync(root, { recursive: true, force: true });
  });

  test("the manifest has flag and keep rows", () => {
    expect(scanned.filter((row) => row.expected === "flag").length).toBeGreaterThanOrEqual(10);
    expect(scanned.filter((row) => row.expected === "keep").length).toBeGreaterThanOrEqual(10);
  });

  test.each(scanned.filter((row) => row.expected === "flag").map((row) => [row.path, row.reason]))(
    "flags %s (%s)",
    (path) => {
      const found = findings.get(path) ?? [];
      expect(found.length).toBeGreaterThan(0);
      const reason = manifest.find((row) => row.path === path)?.reason ?? "";
      // Where the manifest names a rule id (gitleaks ids), that rule is among the findings.
      for (const id of ruleIds.filter((rule) => new RegExp(`(^|[^\\w-])${rule}([^\\w-]|$)`).test(reason))) {
        expect(found.map((finding) => finding.rule)).toContain(id);
      }
    },
  );

  test.each(scanned.filter((row) => row.expected === "keep").map((row) => [row.path, row.reason]))(
    "keeps %s (%s)",
    (path) => {
      expect(findings.get(path)).toEqual([]);
    },
  );
});
