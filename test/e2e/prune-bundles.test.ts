// `prune` removes the stored bundles no open review needs once they are older than the expiry, as
// `git gc --prune=<date>` does objects: driven as a user drives it, on real repos and real reviews.
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import {
  appendFileSync,
  chmodSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { join, relative } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { formatSize } from "../../src/report/output.js";
import { configureWorker, FIXTURES, shellWords } from "../helpers/fixtures.js";
import { stopped } from "../helpers/processes.js";
import {
  BIN,
  createTrailingSpaceRepo,
  repoState,
  repoTracker,
  runUnchanged,
  type TestRepo,
} from "../helpers/repo.js";

const repos = repoTracker();
let started: ChildProcess | undefined;
afterEach(() => {
  // A failed run must not leave its review waiting on the worker.
  if (started && started.exitCode === null && started.signalCode === null) started.kill("SIGKILL");
  started = undefined;
});

async function waitUntil(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 300 && !condition(); i++) await new Promise((resolve) => setTimeout(resolve, 200));
}
const DOWN = shellWords(join(FIXTURES, "workers", "fail-worker.sh"));

function storeDir(repo: TestRepo): string {
  return join(repo.dir, ".git", "review-remote");
}

/** Every file of the store with its size (the lock and temp files aside). */
function storeFiles(repo: TestRepo): Record<string, number> {
  const files: Record<string, number> = {};
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (!entry.name.includes("lock")) files[relative(storeDir(repo), path)] = statSync(path).size;
    }
  };
  walk(storeDir(repo));
  return files;
}

/** The stored bundle files (sha256 → bytes). */
function bundles(repo: TestRepo): Map<string, number> {
  const dir = join(storeDir(repo), "bundles");
  const found = new Map<string, number>();
  for (const name of readdirSync(dir))
    if (name.endsWith(".tar.gz")) found.set(name.slice(0, 64), statSync(join(dir, name)).size);
  return found;
}

function reuseEntries(repo: TestRepo): string[] {
  return readdirSync(join(storeDir(repo), "cache")).filter((name) => name.startsWith("bundle-"));
}

function review(repo: TestRepo, args: string[] = []): { id: string; bundle: string } {
  const result = repo.run(["--json", ...args]);
  expect(result.status, result.stderr).toBe(0);
  const { id } = JSON.parse(result.stdout) as { id: string };
  return { id, bundle: bundleOf(repo, id) };
}

function bundleOf(repo: TestRepo, id: string): string {
  const shown = JSON.parse(repo.run(["show", "--json", id]).stdout) as { review: { bundleSha256: string } };
  return shown.review.bundleSha256;
}

/** `export <rev>`: stores a bundle no review sent; returns its sha256. */
function exportOnly(repo: TestRepo, rev: string): string {
  const result = repo.run(["export", rev]);
  expect(result.status, result.stderr).toBe(0);
  const sha = /([0-9a-f]{64})\.tar\.gz/.exec(result.stdout)?.[1];
  if (!sha) throw new Error(`no bundle path in: ${result.stdout}`);
  return sha;
}

/** `prune --expire=now` run where `path` is a mount point (of itself): it cannot be removed or moved. */
function pruneOverMountPoint(repo: TestRepo, path: string) {
  const script = 'mount --bind "$1" "$1" && exec git review-remote prune --expire=now';
  const run = spawnSync("unshare", ["-m", "sh", "-c", script, "sh", path], {
    cwd: repo.dir,
    env: repo.env,
    encoding: "utf8",
  });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

/** The sha256s pruned.jsonl names, in order. */
function prunedLines(repo: TestRepo): string[] {
  return readFileSync(join(storeDir(repo), "pruned.jsonl"), "utf8")
    .trimEnd()
    .split("\n")
    .map((line) => (JSON.parse(line) as { bundleSha256: string }).bundleSha256);
}

/** A review's stored answer files prune removes once it is done with (name → bytes). */
function answerFiles(repo: TestRepo, id: string): Record<string, number> {
  const files: Record<string, number> = {};
  for (const name of ["result.json", "changes.json", "request.json"]) {
    const path = join(storeDir(repo), "reviews", id, name);
    if (existsSync(path)) files[name] = statSync(path).size;
  }
  return files;
}

function sum(files: Record<string, number>): number {
  return Object.values(files).reduce((total, bytes) => total + bytes, 0);
}

function sizeText(bytes: number): string {
  return `${bytes} B`;
}

describe("prune: stored bundles", () => {
  it("removes done reviews' and exports' bundles after the expiry; --dry-run lists them and changes nothing", () => {
    const repo = createTrailingSpaceRepo(repos);
    const dropped = review(repo);
    expect(repo.run(["drop", dropped.id]).status).toBe(0);
    const exported = exportOnly(repo, "HEAD~1");
    const sizes = bundles(repo);
    expect([...sizes.keys()].sort()).toEqual([dropped.bundle, exported].sort());
    expect(reuseEntries(repo)).toHaveLength(2);

    // The default expiry is two weeks: fresh bundles stay.
    expect(repo.run(["prune"]).stdout).toBe("Nothing to prune.\n");

    const store = storeFiles(repo);
    const dry = runUnchanged(repo, ["prune", "-n", "--expire=now"], 0);
    expect(storeFiles(repo)).toEqual(store);
    const total = (sizes.get(dropped.bundle) ?? 0) + (sizes.get(exported) ?? 0);
    const answer = answerFiles(repo, dropped.id);
    const lines = dry.stdout.trimEnd().split("\n");
    expect(lines).toHaveLength(5);
    expect(lines[3]).toMatch(
      new RegExp(
        `^Would remove ${Object.keys(answer).join(", ")} of review ${dropped.id} \\(${formatSize(sum(answer)).replace(".", "\\.")}, dropped, last changed 20`,
      ),
    );
    expect(dry.stdout).toContain(
      `Would remove bundle ${dropped.bundle.slice(0, 16)} (${sizeText(sizes.get(dropped.bundle) ?? 0)}, review ${dropped.id}, last used `,
    );
    expect(dry.stdout).toContain(
      `Would remove bundle ${exported.slice(0, 16)} (${sizeText(sizes.get(exported) ?? 0)}, no review: export only, last used `,
    );
    expect(lines[2]).toBe(
      `Would free ${sizeText(total)} (2 bundles); their audit lines and manifests would stay.`,
    );
    const json = JSON.parse(repo.run(["prune", "-n", "--expire=now", "--json"]).stdout);
    expect(json).toMatchObject({ dryRun: true, branches: [], bytesFreed: total + sum(answer) });
    expect(json.bundles.map((bundle: { sha256: string }) => bundle.sha256).sort()).toEqual(
      [dropped.bundle, exported].sort(),
    );

    const pruned = repo.run(["prune", "--expire=now"]);
    expect(pruned.status, pruned.stderr).toBe(0);
    expect(pruned.stdout).toContain(`Removed bundle ${dropped.bundle.slice(0, 16)}`);
    expect(pruned.stdout).toContain(
      `Freed ${sizeText(total)} (2 bundles); their audit lines and manifests stay.`,
    );
    expect(bundles(repo).size).toBe(0);
    // The manifests stay; no reuse entry names a missing bundle.
    const left = readdirSync(join(storeDir(repo), "bundles")).sort();
    expect(left).toEqual([`${dropped.bundle}.manifest.json`, `${exported}.manifest.json`].sort());
    expect(reuseEntries(repo)).toEqual([]);
    expect(repo.run(["prune", "--expire=now"]).stdout).toBe("Nothing to prune.\n");

    // The pruned store still answers: the audit keeps its line and says the bundle was pruned.
    const audit = repo.run(["audit"]);
    expect(audit.stdout).toMatch(
      new RegExp(`${dropped.bundle.slice(0, 16)} .*review ${dropped.id}.*  \\(bundle pruned 20`),
    );
    const auditJson = JSON.parse(repo.run(["audit", "--json"]).stdout);
    expect(auditJson).toEqual([
      expect.objectContaining({ bundleSha256: dropped.bundle, pruned: expect.any(String) }),
    ]);
    const verified = repo.run(["audit", "--verify"]);
    expect(verified.status, verified.stderr).toBe(0);
    // No bundle is left to hash: not "All stored bundles hash to their names".
    expect(verified.stdout).toBe(
      "No bundle is stored to hash (1 send recorded).\n1 sent bundle was pruned (git review-remote prune): not in the store, as recorded.\n",
    );
    const shown = repo.run(["show", dropped.id]);
    expect(shown.stdout).toContain(`bundle   ${dropped.bundle.slice(0, 16)} pruned on `);
    const shownJson = JSON.parse(repo.run(["show", "--json", dropped.id]).stdout);
    expect(shownJson.bundle).toMatchObject({ sha256: dropped.bundle, pruned: expect.any(String) });
    expect(repo.run(["list"]).status).toBe(0);

    // The same export asked again builds the bundle again (the same bytes), and it is there.
    const again = review(repo, ["--no-cache"]);
    expect(again.bundle).toBe(dropped.bundle);
    expect(bundles(repo).get(dropped.bundle)).toBe(sizes.get(dropped.bundle));
    const reverified = repo.run(["audit", "--verify"]);
    expect(reverified.status, reverified.stderr).toBe(0);
    expect(reverified.stdout).not.toContain("pruned");
    expect(repo.run(["audit"]).stdout).not.toContain("pruned");
    expect(repo.run(["show", dropped.id]).stdout).not.toContain("pruned on");
  });

  it("removes the stored answers of merged and dropped reviews past the expiry; their records stay and say so", () => {
    const repo = createTrailingSpaceRepo(repos);
    const merged = review(repo);
    expect(repo.run(["merge", merged.id]).status).toBe(0);
    repo.write("src/b.ts", "export const b = 2;  \n");
    repo.commit("b, with trailing spaces");
    const open = review(repo);
    const answer = answerFiles(repo, merged.id);
    expect(Object.keys(answer)).toEqual(["result.json", "changes.json", "request.json"]);
    const openFiles = answerFiles(repo, open.id);
    const before = JSON.parse(repo.run(["list", "--json"]).stdout) as { id: string; updatedAt: string }[];
    expect(repo.run(["prune"]).stdout).toBe("Nothing to prune.\n");
    expect(answerFiles(repo, merged.id)).toEqual(answer);

    const pruned = repo.run(["prune", "--expire=now"]);
    expect(pruned.status, pruned.stderr).toBe(0);
    expect(pruned.stdout).toContain(
      `Removed result.json, changes.json, request.json of review ${merged.id} (${formatSize(sum(answer))}, merged, last changed `,
    );
    expect(pruned.stdout).toContain(
      `Freed ${formatSize(sum(answer))} (1 review's answer); its record stays.`,
    );
    expect(pruned.stdout).toMatch(/^Freed .* \(1 bundle\); its audit line and manifest stay\.$/m);
    expect(answerFiles(repo, merged.id)).toEqual({});
    // The open review keeps its answer; the merged one's record stays, its last change as it was.
    expect(answerFiles(repo, open.id)).toEqual(openFiles);
    const after = JSON.parse(repo.run(["list", "--json"]).stdout) as typeof before;
    const record = after.find((one) => one.id === merged.id) as Record<string, unknown>;
    expect(record).toMatchObject({
      state: "merged",
      updatedAt: before.find((one) => one.id === merged.id)?.updatedAt,
      pruned: { files: ["result.json", "changes.json", "request.json"], bytes: sum(answer) },
    });
    expect(repo.run(["list"]).stdout).toMatch(new RegExp(`^${merged.id}  merged .*1 proposed commit$`, "m"));
    const shown = repo.run(["show", merged.id]);
    expect(shown.status, shown.stderr).toBe(0);
    expect(shown.stdout).toMatch(
      /^pruned {3}result\.json, changes\.json, request\.json \(.+\) on 20.*; the record stays$/m,
    );
    expect(repo.run(["prune", "--expire=now"]).stdout).toBe("Nothing to prune.\n");
  });

  it("keeps the bundles of open reviews: imported, and failed but still importable out of band", () => {
    const repo = createTrailingSpaceRepo(repos);
    configureWorker(repo, "down", DOWN);
    expect(repo.run(["--worker", "down", "HEAD~1"]).status).toBe(3);
    const failed = JSON.parse(repo.run(["list", "--json"]).stdout)[0] as { id: string };
    const failedBundle = bundleOf(repo, failed.id);
    const imported = review(repo);
    expect(imported.bundle).not.toBe(failedBundle);

    const store = storeFiles(repo);
    const kept = runUnchanged(repo, ["prune", "--expire=now"], 0);
    expect(kept.stdout).toBe("Nothing to prune.\n");
    expect(storeFiles(repo)).toEqual(store);

    // Once dropped, the imported review's bundle goes; the failed one's stays.
    expect(repo.run(["drop", imported.id]).status).toBe(0);
    const pruned = repo.run(["prune", "--expire=now"]);
    expect(pruned.status, pruned.stderr).toBe(0);
    expect(pruned.stdout).toContain(`Removed bundle ${imported.bundle.slice(0, 16)}`);
    expect([...bundles(repo).keys()]).toEqual([failedBundle]);
  });

  it("says which open reviews' bundles stay past the expiry; --include-open lets them go", () => {
    const repo = createTrailingSpaceRepo(repos);
    const open = review(repo);
    const kept = repo.run(["prune", "--expire=now"]);
    expect(kept.stdout).toBe("Nothing to prune.\n");
    expect(kept.stderr).toContain("hint: 1 bundle of open reviews (");
    expect(kept.stderr).toContain(
      "stays past the expiry while their reviews are open (git review-remote list); prune --include-open removes them too",
    );
    expect(repo.run(["prune", "--include-open"]).stdout).toBe("Nothing to prune.\n");

    const pruned = repo.run(["prune", "--expire=now", "--include-open"]);
    expect(pruned.status, pruned.stderr).toBe(0);
    expect(pruned.stdout).toContain(`Removed bundle ${open.bundle.slice(0, 16)}`);
    expect(bundles(repo).size).toBe(0);
    // The review is still open and answers: its branch and record are untouched.
    expect(repo.git("rev-parse", "--verify", `review/${open.id}`).trim()).toMatch(/^[0-9a-f]{40}$/);
    expect(repo.run(["show", open.id]).stdout).toContain(`review ${open.id} (imported)`);
    expect(repo.run(["merge", open.id]).status).toBe(0);
  });

  it("keeps, even with --include-open, the bundle of a review whose process still waits on its worker", async () => {
    const repo = createTrailingSpaceRepo(repos);
    configureWorker(repo, "slow", shellWords(join(FIXTURES, "workers", "hang-worker.sh")));
    const client = spawn(process.execPath, [BIN, "--worker", "slow", "-q"], {
      cwd: repo.dir,
      env: repo.env,
      stdio: "ignore",
    });
    started = client;
    const closed = new Promise((resolve) => client.on("close", resolve));
    const running = join(storeDir(repo), "running");
    // The marker is written to a temporary name first and renamed: only a review id counts.
    const markers = () =>
      (existsSync(running) ? readdirSync(running) : []).filter((name) => /^[0-9a-f]{12}$/.test(name));
    await waitUntil(() => markers().length > 0);
    const [id] = markers() as [string];

    const kept = repo.run(["prune", "--expire=now", "--include-open"]);
    expect(kept.status, kept.stderr).toBe(0);
    expect(kept.stdout).toBe("Nothing to prune.\n");
    expect(kept.stderr).toContain("stays: its git-review-remote is still sending or waiting");
    expect(bundles(repo).size).toBe(1);

    client.kill("SIGINT");
    await closed;
    // Interrupted, it waits for an answer out of band: open, so only --include-open lets it go.
    expect(JSON.parse(repo.run(["list", "--json"]).stdout)[0]).toMatchObject({ id, state: "failed" });
    expect(repo.run(["prune", "--expire=now"]).stdout).toBe("Nothing to prune.\n");
    expect(repo.run(["prune", "--expire=now", "--include-open"]).stdout).toContain(`review ${id}`);
    expect(bundles(repo).size).toBe(0);
  });

  it("keeps the bundle an export in flight stored before a record names it; a killed export's goes", async () => {
    const repo = createTrailingSpaceRepo(repos);
    const stopAfterExport = { ...repo.env, REVIEW_REMOTE_TEST_EXPORT_SIGNAL: "STOP" };
    // A review stopped right after its export stored the bundle: no record names it yet.
    const client = spawn(process.execPath, [BIN, "--json"], { cwd: repo.dir, env: stopAfterExport });
    started = client;
    let out = "";
    client.stdout?.on("data", (chunk) => {
      out += chunk;
    });
    const closed = new Promise<number | null>((resolve) => client.on("close", resolve));
    await stopped(client.pid as number);
    const [sha] = [...bundles(repo).keys()] as [string];
    expect(bundles(repo).size).toBe(1);
    expect(JSON.parse(repo.run(["list", "--json"]).stdout)).toEqual([]);
    const store = storeFiles(repo);
    const kept = runUnchanged(repo, ["prune", "--expire=now", "--include-open"], 0);
    expect(kept.stdout).toBe("Nothing to prune.\n");
    expect(storeFiles(repo)).toEqual(store);
    client.kill("SIGCONT");
    expect(await closed).toBe(0);
    const { id } = JSON.parse(out) as { id: string };
    expect(bundleOf(repo, id)).toBe(sha);
    expect(repo.run(["audit", "--verify"]).status).toBe(0);
    expect(readdirSync(join(storeDir(repo), "claims"))).toEqual([]);

    // An export killed in the same place: its claim names an ended process, and its bundle goes.
    const killed = spawn(process.execPath, [BIN, "export", "HEAD~1"], {
      cwd: repo.dir,
      env: stopAfterExport,
    });
    started = killed;
    const gone = new Promise((resolve) => killed.on("close", resolve));
    await stopped(killed.pid as number);
    const exported = [...bundles(repo).keys()].find((name) => name !== sha) as string;
    killed.kill("SIGKILL");
    await gone;
    const pruned = repo.run(["prune", "--expire=now"]);
    expect(pruned.status, pruned.stderr).toBe(0);
    expect(pruned.stdout).toContain(`Removed bundle ${exported.slice(0, 16)}`);
    expect([...bundles(repo).keys()]).toEqual([sha]);
    expect(readdirSync(join(storeDir(repo), "claims"))).toEqual([]);
  });

  it("takes its expiry from --expire, then review-remote.pruneExpire, then two weeks", () => {
    const repo = createTrailingSpaceRepo(repos);
    const old = exportOnly(repo, "HEAD~1");
    const fresh = exportOnly(repo, "HEAD");
    const threeWeeksAgo = new Date(Date.now() - 21 * 86_400_000);
    utimesSync(join(storeDir(repo), "bundles", `${old}.tar.gz`), threeWeeksAgo, threeWeeksAgo);

    const defaulted = repo.run(["prune"]);
    expect(defaulted.status, defaulted.stderr).toBe(0);
    expect(defaulted.stdout).toContain(`Removed bundle ${old.slice(0, 16)}`);
    expect([...bundles(repo).keys()]).toEqual([fresh]);

    repo.git("config", "review-remote.pruneExpire", "now");
    expect(repo.run(["prune", "--expire=never"]).stdout).toBe("Nothing to prune.\n");
    expect(repo.run(["prune", "--expire=1.week.ago"]).stdout).toBe("Nothing to prune.\n");

    // A value prune cannot read is refused, never taken for `now`.
    const store = storeFiles(repo);
    const bad = runUnchanged(repo, ["prune", "--expire=soonish"], 2);
    expect(bad.stderr).toContain("--expire must be now, never, an age (2.weeks.ago) or a date");
    repo.git("config", "review-remote.pruneExpire", "yesterday-ish");
    const badConfig = runUnchanged(repo, ["prune"], 2);
    expect(badConfig.stderr).toContain("bad config value 'yesterday-ish' for review-remote.pruneExpire");
    expect(storeFiles(repo)).toEqual(store);

    repo.git("config", "review-remote.pruneExpire", "now");
    expect(repo.run(["prune"]).stdout).toContain(`Removed bundle ${fresh.slice(0, 16)}`);
    expect(bundles(repo).size).toBe(0);
  });

  it("counts a bundle's age from its last use: an export that reuses or stores it again makes it new", () => {
    const repo = createTrailingSpaceRepo(repos);
    const sha = exportOnly(repo, "HEAD~1");
    const path = join(storeDir(repo), "bundles", `${sha}.tar.gz`);
    const threeWeeksAgo = new Date(Date.now() - 21 * 86_400_000);
    // Reused (its reuse entry names it), then built again and found already stored (no entry).
    for (const forget of [false, true]) {
      if (forget) for (const name of reuseEntries(repo)) rmSync(join(storeDir(repo), "cache", name));
      utimesSync(path, threeWeeksAgo, threeWeeksAgo);
      expect(repo.run(["export", "HEAD~1"]).status).toBe(0);
      expect(statSync(path).mtimeMs).toBeGreaterThan(threeWeeksAgo.getTime() + 86_400_000);
      expect(repo.run(["prune"]).stdout).toBe("Nothing to prune.\n");
    }
    utimesSync(path, threeWeeksAgo, threeWeeksAgo);
    expect(repo.run(["prune"]).stdout).toContain(`Removed bundle ${sha.slice(0, 16)}`);
  });

  it("a bundle recorded as pruned but still there (a prune stopped after its line) counts as stored", () => {
    const repo = createTrailingSpaceRepo(repos);
    const dropped = review(repo);
    expect(repo.run(["drop", dropped.id]).status).toBe(0);
    const line = {
      time: new Date().toISOString(),
      bundleSha256: dropped.bundle,
      bytes: 1,
      reviews: [dropped.id],
    };
    writeFileSync(join(storeDir(repo), "pruned.jsonl"), `${JSON.stringify(line)}\n`);
    const verified = repo.run(["audit", "--verify"]);
    expect(verified.status, verified.stderr).toBe(0);
    expect(verified.stdout).not.toContain("pruned");
    expect(repo.run(["audit"]).stdout).not.toContain("pruned");
    expect(repo.run(["show", dropped.id]).stdout).not.toContain("pruned on");
    // Its bytes are still checked: a changed one is reported, not excused as pruned.
    const path = join(storeDir(repo), "bundles", `${dropped.bundle}.tar.gz`);
    chmodSync(path, 0o644);
    appendFileSync(path, "x");
    const tampered = repo.run(["audit", "--verify"]);
    expect(tampered.status).toBe(1);
    expect(tampered.stderr).toContain(`${dropped.bundle}.tar.gz: content hashes to`);
    const pruned = repo.run(["prune", "--expire=now"]);
    expect(pruned.stdout).toContain(`Removed bundle ${dropped.bundle.slice(0, 16)}`);
    expect(repo.run(["audit", "--verify"]).status).toBe(0);
  });

  it("a prune that cannot remove a bundle or an answer file stops there: what it records is what went", () => {
    const repo = createTrailingSpaceRepo(repos);
    const dropped = review(repo);
    expect(repo.run(["drop", dropped.id]).status).toBe(0);
    const exported = exportOnly(repo, "HEAD~1");
    // Removed in the order of their names: the second cannot be, a mount point (EBUSY, even to root).
    const [first, second] = [dropped.bundle, exported].sort() as [string, string];
    const sizes = bundles(repo);
    const answer = answerFiles(repo, dropped.id);
    const before = repoState(repo);
    const busy = pruneOverMountPoint(repo, join(storeDir(repo), "bundles", `${second}.tar.gz`));
    expect(busy.status, busy.stderr).toBe(1);
    expect(busy.stdout).toContain(`Removed bundle ${first.slice(0, 16)}`);
    expect(busy.stderr).toContain("Resource busy or locked");
    expect(busy.stderr).toContain("prune stopped: 1 more bundle was left as they were");
    expect(prunedLines(repo)).toEqual([first]);
    expect([...bundles(repo)]).toEqual([[second, sizes.get(second)]]);
    expect(readdirSync(join(storeDir(repo), "bundles")).filter((name) => name.endsWith(".pruning"))).toEqual(
      [],
    );
    expect(answerFiles(repo, dropped.id)).toEqual(answer);
    expect(repo.run(["audit", "--verify"]).status).toBe(0);
    expect(repoState(repo)).toEqual(before);

    // An answer file that cannot be removed: the record names only the one removed before it.
    const stuck = pruneOverMountPoint(repo, join(storeDir(repo), "reviews", dropped.id, "changes.json"));
    expect(stuck.status, stuck.stderr).toBe(1);
    expect(stuck.stdout).toContain(`Removed bundle ${second.slice(0, 16)}`);
    expect(stuck.stdout).toContain(`Removed result.json of review ${dropped.id}`);
    expect(stuck.stderr).toContain("Resource busy or locked");
    expect(prunedLines(repo)).toEqual([first, second]);
    expect(Object.keys(answerFiles(repo, dropped.id))).toEqual(["changes.json", "request.json"]);
    const record = () => JSON.parse(repo.run(["show", "--json", dropped.id]).stdout).review;
    expect(record().pruned).toMatchObject({ files: ["result.json"], bytes: answer["result.json"] });
    expect(repoState(repo)).toEqual(before);

    const finished = repo.run(["prune", "--expire=now"]);
    expect(finished.status, finished.stderr).toBe(0);
    expect(answerFiles(repo, dropped.id)).toEqual({});
    expect(record().pruned).toMatchObject({
      files: ["result.json", "changes.json", "request.json"],
      bytes: sum(answer),
    });
    expect(repo.run(["audit", "--verify"]).status).toBe(0);
  });

  it("a prune that cannot record what it removes stops and removes nothing; run again, it finishes", () => {
    const repo = createTrailingSpaceRepo(repos);
    const dropped = review(repo);
    expect(repo.run(["drop", dropped.id]).status).toBe(0);
    exportOnly(repo, "HEAD~1");
    // pruned.jsonl cannot be appended to (a directory in its place: refused even to root).
    mkdirSync(join(storeDir(repo), "pruned.jsonl", "x"), { recursive: true });
    const store = storeFiles(repo);
    const failed = runUnchanged(repo, ["prune", "--expire=now"], 1);
    expect(failed.stderr).toContain("cannot write to the store");
    expect(failed.stderr).toContain("prune stopped: 2 more bundles were left as they were");
    expect(storeFiles(repo)).toEqual(store);
    expect(repo.run(["audit", "--verify"]).status).toBe(0);

    rmSync(join(storeDir(repo), "pruned.jsonl"), { recursive: true });
    const pruned = repo.run(["prune", "--expire=now"]);
    expect(pruned.status, pruned.stderr).toBe(0);
    expect(pruned.stdout).toContain("(2 bundles)");
    expect(bundles(repo).size).toBe(0);
    expect(
      readFileSync(join(storeDir(repo), "pruned.jsonl"), "utf8")
        .trimEnd()
        .split("\n"),
    ).toHaveLength(2);
  });
});
