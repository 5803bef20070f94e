import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import {
  envelope,
  gzip,
  makeRequest,
  parseResult,
  runWorkerOn,
  TARS,
  useWorkspaceRoot,
} from "./worker-helpers.js";
import { makeTar } from "./worker-tar.js";

const workspaces = useWorkspaceRoot();

/** The rule (and entry) each hostile fixture is refused by. */
const EXPECTED: Record<string, { rule: string; entry?: string }> = {
  "01-dotdot-traversal": { rule: "dotdot", entry: "../../evil-dotdot.txt" },
  "03-absolute-multislash": { rule: "absolute-path", entry: "////tmp/holdout-evil-multislash.txt" },
  "05-symlink-rel-escape-then-write": { rule: "through-symlink", entry: "a/up/escaped-rel.txt" },
  "07-hardlink-dotdot-then-write": { rule: "hardlink", entry: "x" },
  "09-dir-then-symlink-same-name": { rule: "symlink-absolute-path", entry: "a" },
  "11-gzip-bomb-10MiB": { rule: "compression-ratio" },
  "13-pax-long-path-traversal": { rule: "dotdot", entry: "a/a/a/a/a/a" },
  "15-backslash-paths": { rule: "backslash", entry: "..\\\\..\\\\evil-backslash.txt" },
  "17-unicode-ligature-collision": { rule: "symlink-absolute-path", entry: "\\ufb00" },
  "19-hardlink-via-symlink-chain": { rule: "hardlink", entry: "exfil" },
  "21-drive-relative-paths": { rule: "drive-path", entry: "C:../evil-drive-rel.txt" },
  "23-global-pax-path": { rule: "pax-global-header" },
  "25-negative-size-header": { rule: "tar-format" },
  "27-pax-long-linkpath-symlink": { rule: "symlink-absolute-path", entry: "link" },
  // The even half: the next spelling of each public case.
  "04-gnu-longname-traversal": { rule: "dotdot", entry: "a/a/a/a/a/a" },
  "06-gnu-longlink-symlink": { rule: "symlink-absolute-path", entry: "link" },
  "08-file-then-symlink-same-name": { rule: "symlink-absolute-path", entry: "a" },
  "10-hardlink-pax-linkpath": { rule: "hardlink", entry: "pw" },
  "12-devices-and-fifo": { rule: "device", entry: "dev/null0" },
  "14-gnu-sparse-type-s": { rule: "tar-format" },
  "16-directory-traversal": { rule: "dotdot", entry: "../../holdout-evil-dir/" },
  "18-base256-huge-size": { rule: "expanded-size", entry: "big.bin" },
  "20-trailing-data-after-end": { rule: "tar-trailing-data" },
  "22-pax-size-override": { rule: "pax-size", entry: "a.txt" },
  "24-dotgit-entries": { rule: "dotgit", entry: "sub/.GIT/config" },
  "26-bad-checksum-midway": { rule: "tar-format" },
  "28-nfc-nfd-names": { rule: "case-collision", entry: "cafe\\u0301.txt" },
  "30-two-pax-headers-one-entry": { rule: "tar-format" },
  "32-gnu-longname-and-pax-path": { rule: "tar-format" },
};

const fixtures = readdirSync(TARS)
  .filter((name) => name.endsWith(".expect"))
  .map((name) => name.replace(/\.expect$/, ""));

/** Places a hostile entry could have landed if it escaped: the temp roots and / itself. */
function escapeCanaries(): string[] {
  const places = ["/", "/tmp", "/dev/shm", workspaces.root];
  return places.flatMap((dir) =>
    readdirSync(dir)
      .filter((name) => /evil|holdout|pwned|escaped/.test(name))
      .map((name) => join(dir, name)),
  );
}

describe("worker on the fixture bundles", () => {
  const before = escapeCanaries();

  it.each(fixtures)("%s behaves as its .expect says", async (name) => {
    const expectation = readFileSync(join(TARS, `${name}.expect`), "utf8");
    const file = readdirSync(TARS).find((entry) => entry.startsWith(`${name}.tar`)) as string;
    const raw = readFileSync(join(TARS, file));
    const bundle = file.endsWith(".gz") ? raw : gzip(raw);
    const run = await runWorkerOn(envelope(makeRequest(bundle), bundle), { sandbox: "auto" });
    if (expectation.startsWith("accept")) {
      expect(run.code, run.stderr).toBe(0);
      const result = parseResult(run.stdout);
      expect(result.status).toBe("ok");
    } else {
      const expected = EXPECTED[name];
      expect(expected, `no expectation recorded for ${name}`).toBeDefined();
      expect(run.code).toBe(1);
      expect(run.stdout).toBe("");
      expect(run.stderr).toContain("git-review-remote worker: bundle refused:");
      expect(run.stderr).toContain(`(rule: ${expected?.rule})`);
      if (expected?.entry) expect(run.stderr).toContain(expected.entry);
    }
    expect(workspaces.leftovers()).toEqual([]);
    expect(escapeCanaries()).toEqual(before);
    expect(existsSync("/tmp/holdout-canary-dir/2.txt")).toBe(false);
  });

  it("has an expectation for every hostile fixture", () => {
    const hostile = fixtures.filter(
      (name) => !readFileSync(join(TARS, `${name}.expect`), "utf8").startsWith("accept"),
    );
    expect(hostile.sort()).toEqual(Object.keys(EXPECTED).sort());
  });
});

describe("worker against parser differences with GNU tar", () => {
  // A directory that denies writing, entered again after other entries (git archive never writes
  // either): the tree gets git's modes, not the bundle's, and every entry lands.
  it("unpacks a directory entered twice whose mode denies writing into it", async () => {
    const bundle = gzipSync(
      makeTar([
        { name: "a/", type: "5", mode: 0o555 },
        { name: "a/x.txt", content: "x\n" },
        { name: "b/", type: "5" },
        { name: "b/x.txt", content: "x\n" },
        { name: "a/y.txt", content: "y\n" },
      ]),
    );
    const run = await runWorkerOn(envelope(makeRequest(bundle), bundle));
    expect(run.code, run.stderr).toBe(0);
    expect(parseResult(run.stdout).status).toBe("ok");
    expect(workspaces.leftovers()).toEqual([]);
  });

  // GNU sparse records are refused by the tar reader itself, before anything is extracted.
  it.each([
    [{ "GNU.sparse.name": "evil.txt" }, "tar-format"],
    [
      {
        "GNU.sparse.major": "1",
        "GNU.sparse.minor": "0",
        "GNU.sparse.name": "x",
        "GNU.sparse.realsize": "9",
      },
      "tar-format",
    ],
  ])("refuses an archive GNU tar reads differently (pax %j)", async (pax, rule) => {
    const bundle = gzipSync(makeTar([{ name: "a.txt", content: "hello\n", pax }]));
    const run = await runWorkerOn(
      envelope(makeRequest(bundle, { bundle: { ...makeRequest(bundle).bundle, files: 1 } }), bundle),
    );
    expect(run.code).toBe(1);
    expect(run.stdout).toBe("");
    expect(run.stderr).toContain(`(rule: ${rule})`);
    expect(run.stderr).toContain("GNU sparse");
    expect(workspaces.leftovers()).toEqual([]);
  });
});
