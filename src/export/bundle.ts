// The export stage: snapshot → filtered tree → one streaming pass → `bundles/<sha256>.tar.gz`.
import { access, chmod, rename, rm } from "node:fs/promises";
import { join } from "node:path";
import type { Policy } from "../config/policy.js";
import { debug } from "../debug.js";
import { ExportRefusedError, ReviewRemoteError } from "../errors.js";
import { resolveCommit } from "../git/commits.js";
import { createScratch, type Scratch } from "../git/scratch.js";
import { listTree } from "../git/trees.js";
import { messages } from "../messages.js";
import { removeStale } from "../os/tempdir.js";
import type { Repo } from "../repo.js";
import type { Finding } from "../secrets/scanner.js";
import { ensureDir, storeError, storePaths, tempName, writeFileAtomic } from "../store/layout.js";
import { escapeForDisplay } from "../validate/sanitize.js";
import { createArchive, type FileScanner, type ManifestFile } from "./archive.js";
import { type Exclusion, filterEntries } from "./filter.js";
import { createRange, type RangeInfo } from "./range.js";
import { type Snapshot, SnapshotKind, snapshotWorktree } from "./snapshot.js";
import { commitFilteredTree, readSymlinkTargets, selectPathspecs } from "./tree.js";

export interface ExportOptions {
  rev?: string;
  /** Review a range: the request carries base..rev's changed paths and their scanned patch. */
  base?: string;
  worktree?: boolean;
  pathspecs?: readonly string[];
  policy: Policy;
  scanner: FileScanner;
  /** Keep the scratch dir (the work-tree snapshot's objects) for the caller, who disposes of it. */
  retainScratch?: boolean;
  /** Inspect only: store nothing (`export --list`). */
  listOnly?: boolean;
  onProgress?: (tarBytes: number) => void;
}

export interface ExportResult {
  snapshot: Snapshot;
  files: ManifestFile[];
  excluded: Exclusion[];
  findings: Finding[];
  range?: RangeInfo;
  scratch?: Scratch;
  /** Set when the bundle was stored. */
  sha256?: string;
  bytes?: number;
  path?: string;
}

const BUNDLE_TEMP = "bundle";

export function manifestPath(bundlePath: string): string {
  return bundlePath.replace(/\.tar\.gz$/, ".manifest.json");
}

async function exists(path: string): Promise<boolean> {
  return access(path).then(
    () => true,
    () => false,
  );
}

/** Move the finished temp file to its content address, read-only, next to its manifest. */
async function storeBundle(
  bundles: string,
  tmp: string,
  sha256: string,
  files: readonly ManifestFile[],
): Promise<string> {
  const path = join(bundles, `${sha256}.tar.gz`);
  try {
    await ensureDir(bundles);
    const manifest = `${JSON.stringify({ sha256, files }, null, 1)}\n`;
    if (!(await exists(manifestPath(path)))) await writeFileAtomic(manifestPath(path), manifest, 0o444);
    if (await exists(path)) {
      await rm(tmp, { force: true });
    } else {
      await chmod(tmp, 0o444);
      await rename(tmp, path);
    }
    return path;
  } catch (error) {
    if (error instanceof ReviewRemoteError) throw error;
    throw storeError(bundles, error);
  }
}

export async function createExport(repo: Repo, options: ExportOptions): Promise<ExportResult> {
  const scratch = await createScratch(repo);
  let tmp: string | undefined;
  let retained = false;
  try {
    const snapshot: Snapshot = options.worktree
      ? await snapshotWorktree(repo, scratch, options.policy.exclude ?? [])
      : { kind: SnapshotKind.commit, commit: await resolveCommit(repo, options.rev ?? "HEAD") };
    debug(`export: snapshot ${snapshot.commit}`);
    const entries = await listTree({ cwd: scratch.dir, env: scratch.env }, snapshot.commit);
    debug(`export: listed ${entries.length} entries`);
    const pathspecs = options.pathspecs ?? [];
    const selected = pathspecs.length
      ? await selectPathspecs(repo, scratch, snapshot.commit, pathspecs)
      : undefined;
    const rules = { exclude: options.policy.exclude ?? [], include: options.policy.include ?? [], selected };
    const { kept, excluded } = filterEntries(entries, {
      ...rules,
      symlinkTargets: await readSymlinkTargets(scratch, entries),
    });
    if (kept.length === 0 && !options.listOnly) {
      throw new ReviewRemoteError(messages.nothingToExport, { hints: [messages.hintNothingToExport] });
    }
    const commit = await commitFilteredTree(
      scratch,
      snapshot.commit,
      excluded.map((entry) => entry.path),
    );
    debug(`export: filtered tree committed (${kept.length} kept, ${excluded.length} excluded)`);
    const store = storePaths(repo);
    if (!options.listOnly) {
      await ensureDir(store.tmp);
      await removeStale([`${BUNDLE_TEMP}.tmp-`], store.tmp);
      tmp = tempName(join(store.tmp, BUNDLE_TEMP));
    }
    const archived = await createArchive({
      scratch,
      commit,
      scanner: options.scanner,
      output: tmp,
      onProgress: options.onProgress,
    });
    debug(`export: archived ${archived.tarBytes} tar bytes`);
    // export-ignore (from the tree's .gitattributes) is applied by git archive itself.
    const inBundle = new Set(archived.files.map((file) => file.path));
    for (const entry of kept) {
      if (!inBundle.has(entry.path)) excluded.push({ path: entry.path, reason: "export-ignore attribute" });
    }
    excluded.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
    const result: ExportResult = { snapshot, files: archived.files, excluded, findings: archived.findings };
    if (options.base !== undefined) {
      const base = await resolveCommit(repo, options.base);
      const ranged = await createRange({
        scratch,
        base,
        head: snapshot.commit,
        headRemoved: excluded.map((entry) => entry.path),
        rules,
        scanner: options.scanner,
      });
      result.range = ranged.range;
      result.findings.push(...ranged.findings);
    }
    if (options.listOnly) return result;
    if (result.findings.length > 0) throw new SecretsFoundError(result.findings);
    const path = await storeBundle(store.bundles, tmp as string, archived.sha256 as string, archived.files);
    tmp = undefined;
    if (options.retainScratch) {
      result.scratch = scratch;
      retained = true;
    }
    return { ...result, sha256: archived.sha256, bytes: archived.bytes, path };
  } catch (error) {
    if (error instanceof ReviewRemoteError || !isDiskError(error)) throw error;
    throw storeError(storePaths(repo).root, error);
  } finally {
    if (tmp) await rm(tmp, { force: true });
    if (!retained) await scratch.dispose();
  }
}

function isDiskError(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code === "ENOSPC" || code === "EROFS" || code === "EACCES" || code === "EPERM" || code === "EDQUOT";
}

export function formatFinding(finding: Finding): string {
  return `${escapeForDisplay(finding.path)}:${finding.line}: ${finding.rule}: ${finding.description} (${finding.redacted}) [fingerprint ${finding.fingerprint}]`;
}

/** The content scan stopped the export; `findings` are redacted and safe to print. */
export class SecretsFoundError extends ExportRefusedError {
  constructor(readonly findings: readonly Finding[]) {
    super(messages.secretsFound(findings.length), {
      details: findings.map(formatFinding),
      hints: [messages.hintSecretsExclude, messages.hintSecretsAllow],
    });
  }
}
