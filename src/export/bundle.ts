// The export stage: snapshot → filtered tree → one streaming pass → `bundles/<sha256>.tar.gz`.
// `listExport` stops before anything is stored (`export --list`); `createBundle` stores the bundle.
import { rm } from "node:fs/promises";
import { join } from "node:path";
import type { Policy } from "../config/policy.js";
import { debug } from "../debug.js";
import { ExportRefusedError, ReviewRemoteError } from "../errors.js";
import { resolveCommit } from "../git/commits.js";
import { readQuotePath } from "../git/quote.js";
import { createScratch, type Scratch } from "../git/scratch.js";
import { listTree } from "../git/trees.js";
import { messages } from "../messages.js";
import { removeStale } from "../os/tempdir.js";
import type { Repo } from "../repo.js";
import {
  formatFinding,
  formatFindingGroup,
  groupFindings,
  redactValues,
  testDirsAllow,
  valuesInNames,
} from "../report/finding.js";
import { isAllowedByPathAlone } from "../secrets/allow.js";
import { type Finding, isOffLine } from "../secrets/finding.js";
import { forgetJudgedPaths } from "../secrets/names.js";
import { type ContentScanner, createContentScanner } from "../secrets/scanner.js";
import { storeBundle } from "../store/bundles.js";
import { keyPathspecs } from "../store/cache.js";
import { claimBundle } from "../store/claims.js";
import { ensureDir, storeError, storePaths, tempName } from "../store/layout.js";
import { escapeForDisplay } from "../validate/sanitize.js";
import { type ArchiveOptions, inspectArchive, type ManifestFile, writeArchive } from "./archive.js";
import { type Exclusion, filterEntries } from "./filter.js";
import { createRange, type RangeInfo } from "./range.js";
import { currentReuseKey, findReusable, rememberBundle } from "./reuse.js";
import { type Snapshot, SnapshotKind, snapshotWorktree } from "./snapshot.js";
import { commitFilteredTree, readSymlinkTargets, selectPathspecs } from "./tree.js";

export interface ExportOptions {
  rev?: string | undefined;
  /** Review a range: the request carries base..rev's changed paths and their scanned patch. */
  base?: string | undefined;
  worktree?: boolean;
  /** `rev` and `base` are commit ids already resolved (the pipeline's target stage): no git call again. */
  resolved?: boolean;
  pathspecs?: readonly string[];
  policy: Policy;
  onProgress?: (tarBytes: number) => void;
  /** A commit exported before under the same policy and rules: its stored bundle (default true). */
  reuse?: boolean;
}

/** What would leave and what stays, and why (`export --list`); nothing is stored. */
export interface ExportListing {
  snapshot: Snapshot;
  files: ManifestFile[];
  excluded: Exclusion[];
  findings: Finding[];
  /** What an allow let through, each with `allowedBy`: leaves with the bundle, shown by `--list`. */
  allowed: Finding[];
  range?: RangeInfo;
  /** Every finding is in lines the range's patch removes: the tree alone (`--all`) holds none. */
  removedOnly?: boolean;
}

/** A bundle in the store: the listing, and the stored file's sha256, size and path. */
export interface StoredBundle extends ExportListing {
  sha256: string;
  bytes: number;
  path: string;
}

const BUNDLE_TEMP = "bundle";

function commitOf(repo: Repo, rev: string | undefined, resolved = false): Promise<string> {
  return resolved && rev !== undefined ? Promise.resolve(rev) : resolveCommit(repo, rev ?? "HEAD");
}

/**
 * The snapshot: a commit, or a synthetic commit of the work tree in the scratch dir, and what a
 * work-tree snapshot left out by name (an untracked `.env`), for the listing.
 */
async function takeSnapshot(
  repo: Repo,
  scratch: Scratch,
  options: ExportOptions,
): Promise<{ snapshot: Snapshot; keptOut: Exclusion[] }> {
  const taken = options.worktree
    ? await snapshotWorktree(repo, scratch, options.policy.exclude ?? [])
    : {
        snapshot: { kind: SnapshotKind.commit, commit: await commitOf(repo, options.rev, options.resolved) },
        keptOut: [],
      };
  debug(`export: snapshot ${taken.snapshot.commit}`);
  return taken;
}

/** The entries of the snapshot the filtered tree keeps and leaves out, and the rules that chose them. */
async function filterSnapshot(
  repo: Repo,
  scratch: Scratch,
  options: ExportOptions,
  { snapshot, keptOut }: { snapshot: Snapshot; keptOut: Exclusion[] },
) {
  const entries = await listTree({ cwd: scratch.dir, env: scratch.env }, snapshot.commit);
  debug(`export: listed ${entries.length} entries`);
  const pathspecs = options.pathspecs ?? [];
  const selected = pathspecs.length
    ? await selectPathspecs(repo, scratch, snapshot.commit, pathspecs)
    : undefined;
  const rules = { exclude: options.policy.exclude ?? [], include: options.policy.include ?? [], selected };
  const symlinkTargets = await readSymlinkTargets(scratch, entries);
  const { kept, excluded } = filterEntries(entries, { ...rules, symlinkTargets });
  debug(`export: filtered (${kept.length} kept, ${excluded.length} excluded)`);
  // The whole listing stays for a range review: the base's is made from it and what changed.
  return { snapshot, entries, symlinkTargets, kept, excluded, rules, keptOut };
}

/** The filtered tree as a commit in the scratch dir. */
function commitFiltered(scratch: Scratch, filtered: Filtered): Promise<string> {
  const removed = filtered.excluded.map((entry) => entry.path);
  return commitFilteredTree(scratch, filtered.snapshot.commit, removed);
}

type Filtered = Awaited<ReturnType<typeof filterSnapshot>>;
type Ranged = Awaited<ReturnType<typeof rangeOf>>;
type Settled<T> = { value: T } | { error: unknown };

function rangeOf(
  repo: Repo,
  scratch: Scratch,
  options: ExportOptions,
  filtered: Filtered,
  headRemoved: string[],
) {
  const scanner = scannerFor(options.policy);
  return commitOf(repo, options.base, options.resolved)
    .then((base) =>
      createRange({
        scratch,
        base,
        head: { commit: filtered.snapshot.commit, entries: filtered.entries, links: filtered.symlinkTargets },
        headRemoved,
        rules: filtered.rules,
        scanner,
      }),
    )
    .then((ranged) => ({
      ...ranged,
      // Its scan reads the base's blobs alone: what it allowed is in the patch, at the base's lines.
      allowed: scanner.allowed().map((finding): Finding => ({ ...finding, inBase: true })),
    }));
}

/**
 * A range review's range, started beside the archive pass (its git calls and the base's listing
 * overlap the archive) from what the filter left out. Settled, not thrown: the archive's own failure
 * is the one to report, and completeListing uses it only if the archive left out nothing more.
 */
function startRange(
  repo: Repo,
  scratch: Scratch,
  options: ExportOptions,
  filtered: Filtered,
): Promise<Settled<Ranged>> | undefined {
  if (options.base === undefined) return undefined;
  const headRemoved = filtered.excluded.map((entry) => entry.path);
  return rangeOf(repo, scratch, options, filtered, headRemoved).then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );
}

/** The listing of one archive pass, with the range of a range review. */
async function completeListing(
  repo: Repo,
  scratch: Scratch,
  options: ExportOptions,
  filtered: Filtered,
  archived: { files: ManifestFile[]; findings: Finding[]; allowed: Finding[] },
  early: Promise<Settled<Ranged>> | undefined,
): Promise<ExportListing> {
  const { snapshot, kept, excluded } = filtered;
  // export-ignore (from the tree's .gitattributes) is applied by git archive itself.
  const inBundle = new Set(archived.files.map((file) => file.path));
  let ignored = 0;
  for (const entry of kept) {
    if (inBundle.has(entry.path)) continue;
    excluded.push({ path: entry.path, reason: "export-ignore attribute" });
    ignored++;
  }
  const byPath = (a: Exclusion, b: Exclusion) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0);
  // What the work-tree snapshot left out by name is kept back too, though no tree lists it.
  const listed = filtered.keptOut.length ? new Set(filtered.entries.map((entry) => entry.path)) : undefined;
  const unlisted = filtered.keptOut.filter((entry) => !listed?.has(entry.path));
  const keptBack = (unlisted.length ? [...excluded, ...unlisted] : excluded).sort(byPath);
  const listing: ExportListing = {
    snapshot,
    files: archived.files,
    excluded: keptBack,
    findings: archived.findings,
    allowed: archived.allowed,
  };
  if (options.base === undefined) return listing;
  // The range started early left out what the filter did: still right if git archive left out nothing more.
  const settled = await early;
  const ranged =
    settled && ignored === 0
      ? unsettle(settled)
      : await rangeOf(
          repo,
          scratch,
          options,
          filtered,
          excluded.map((entry) => entry.path),
        );
  const { refused, copies } = headAllowedCopies(ranged.findings, listing.allowed);
  // Found in the range's patch alone: in lines the change removes (what it adds is in the tree too).
  if (listing.findings.length === 0 && refused.length > 0) listing.removedOnly = true;
  // The base's version of a changed file also holds the lines the change kept: a secret the tree
  // still holds there (the same value in the same file, one fingerprint) is one finding, the tree's.
  appendNew(listing.findings, refused);
  appendNew(listing.allowed, ranged.allowed);
  listing.allowed.push(...copies);
  if (ranged.baseExcluded.length > 0) {
    const base = ranged.baseExcluded.map((entry) => ({
      ...entry,
      reason: messages.keptBackInBase(entry.reason),
    }));
    listing.excluded = [...listing.excluded, ...base].sort(byPath);
  }
  debug(`export: range of ${ranged.range.paths.length} changed paths`);
  return { ...listing, range: ranged.range };
}

/** A finding's secret and place: its fingerprint (of path, rule and value) and archive member. */
function sameSecret(finding: Finding): string {
  return `${finding.fingerprint}\0${finding.member ?? ""}`;
}

/**
 * The base's findings split: those the head lets through too (the same value in the same file, one
 * fingerprint, allowed there: a marker the change adds to the line that held it) are allowed with
 * the head's allow and line, for the value leaves in the tree whatever the patch carries; the rest
 * stay refused, the secret the patch's removed lines would carry alone.
 */
function headAllowedCopies(
  inBase: readonly Finding[],
  headAllowed: readonly Finding[],
): { refused: Finding[]; copies: Finding[] } {
  const byHead = new Map(headAllowed.map((finding) => [sameSecret(finding), finding]));
  const refused: Finding[] = [];
  const copies: Finding[] = [];
  for (const finding of inBase) {
    const head = byHead.get(sameSecret(finding));
    if (head === undefined) refused.push(finding);
    else copies.push({ ...finding, allowedBy: head.allowedBy as string, headLine: head.line });
  }
  return { refused, copies };
}

/** Appends to `into` the findings of `more` whose secret it does not hold yet. */
function appendNew(into: Finding[], more: readonly Finding[]): void {
  const held = new Set(into.map(sameSecret));
  into.push(...more.filter((finding) => !held.has(sameSecret(finding))));
}

/** `work`'s value; when it fails, the early range is waited for first (its git calls use the scratch dir). */
async function settleFirst<T>(work: Promise<T>, early: Promise<unknown> | undefined): Promise<T> {
  try {
    return await work;
  } catch (error) {
    await early;
    throw error;
  }
}

/** The content scanner with the policy's known false positives allowed, and its marker switch. */
function scannerFor(policy: Policy): ContentScanner {
  const { allow = [], gitleaksAllow = true } = policy.secrets ?? {};
  return createContentScanner({ allow, gitleaksAllow });
}

function archiveOptions(
  scratch: Scratch,
  commit: string,
  options: ExportOptions,
  scanner: ContentScanner,
): ArchiveOptions {
  return { scratch, commit, scanner, onProgress: options.onProgress };
}

/** What would leave, what stays and why, and what the content scan would say; stores nothing. */
export async function listExport(repo: Repo, options: ExportOptions): Promise<ExportListing> {
  const scratch = await createScratch(repo);
  try {
    const filtered = await filterSnapshot(repo, scratch, options, await takeSnapshot(repo, scratch, options));
    // A listing of nothing with nothing kept back would say "Would send 0 files" and no more: the
    // listing fails as the export would, saying why.
    refuseEmpty(filtered);
    const commit = await commitFiltered(scratch, filtered);
    const early = startRange(repo, scratch, options, filtered);
    const scanner = scannerFor(options.policy);
    const archived = await settleFirst(
      inspectArchive(archiveOptions(scratch, commit, options, scanner)),
      early,
    );
    const allowed = scanner.allowed();
    return await completeListing(repo, scratch, options, filtered, { ...archived, allowed }, early);
  } finally {
    await scratch.dispose();
    forgetJudgedPaths();
  }
}

/** Nothing to send and nothing excluded: an empty work tree, or a commit of an empty tree. */
function refuseEmpty(filtered: Filtered): void {
  if (filtered.entries.length > 0 || filtered.keptOut.length > 0) return;
  const worktree = filtered.snapshot.kind === SnapshotKind.worktree;
  throw new ReviewRemoteError(worktree ? messages.emptyWorkTree : messages.emptyCommit, {
    hints: [worktree ? messages.hintEmptyWorkTree : messages.hintEmptyCommit],
  });
}

/**
 * Builds, scans and stores the bundle (or reuses the one stored). A caller that needs the snapshot's
 * objects afterwards (a work-tree snapshot lives only in the scratch dir) passes a scratch dir of its
 * own and disposes of it; otherwise the export makes one and removes it. A testing aid,
 * REVIEW_REMOTE_TEST_EXPORT_SIGNAL=STOP, stops this process once the bundle is stored and before any
 * record names it, so that a test runs a prune in that window.
 */
export async function createBundle(repo: Repo, options: ExportOptions, own?: Scratch): Promise<StoredBundle> {
  const bundle = await exportBundle(repo, options, own);
  if (process.env.REVIEW_REMOTE_TEST_EXPORT_SIGNAL === "STOP") process.kill(process.pid, "SIGSTOP");
  return bundle;
}

async function exportBundle(repo: Repo, options: ExportOptions, own?: Scratch): Promise<StoredBundle> {
  const store = storePaths(repo);
  let key: string | undefined;
  if (!options.worktree && options.reuse !== false) {
    const commit = await commitOf(repo, options.rev, options.resolved);
    const base =
      options.base === undefined ? undefined : await commitOf(repo, options.base, options.resolved);
    options = { ...options, rev: commit, base, resolved: true };
    key = reuseKeyOf(repo, commit, base, options);
    const reused = await findReusable(store, key);
    if (reused) {
      debug(`export: reused the stored bundle ${reused.sha256}`);
      const { snapshot, files, excluded, range, sha256, bytes, path } = reused;
      return {
        snapshot,
        files,
        excluded,
        findings: [],
        allowed: [],
        ...(range ? { range } : {}),
        sha256,
        bytes,
        path,
      };
    }
  }
  const scratch = own ?? (await createScratch(repo));
  let tmp: string | undefined;
  let ahead: Speculation | undefined;
  try {
    const taken = await takeSnapshot(repo, scratch, options);
    await ensureDir(store.tmp);
    await removeStale([`${BUNDLE_TEMP}.tmp-`], store.tmp);
    ahead = archiveAhead(scratch, taken.snapshot, options, tempName(join(store.tmp, BUNDLE_TEMP)));
    const filtered = await filterSnapshot(repo, scratch, options, taken);
    refuseEmpty(filtered);
    if (filtered.kept.length === 0) {
      throw new ReviewRemoteError(messages.nothingToExport, { hints: [messages.hintNothingToExport] });
    }
    let archive: Promise<Awaited<ReturnType<typeof writeArchive>>>;
    let scanner: ContentScanner;
    if (ahead && filtered.excluded.length === 0) {
      // Nothing left out: the filtered tree is the snapshot's own, and the archive started is the bundle.
      tmp = ahead.tmp;
      ahead.keep();
      archive = ahead.done.then(unsettle);
      scanner = ahead.scanner;
      ahead = undefined;
    } else {
      if (ahead) await abandon(ahead);
      ahead = undefined;
      tmp = tempName(join(store.tmp, BUNDLE_TEMP));
      scanner = scannerFor(options.policy);
      const commit = await commitFiltered(scratch, filtered);
      archive = writeArchive(archiveOptions(scratch, commit, options, scanner), tmp);
    }
    const early = startRange(repo, scratch, options, filtered);
    const { listing, digest } = await settleFirst(archive, early);
    debug(`export: archived ${listing.tarBytes} tar bytes`);
    const archived = { ...listing, allowed: scanner.allowed() };
    const complete = await completeListing(repo, scratch, options, filtered, archived, early);
    if (complete.findings.length > 0) {
      const quotePath = await readQuotePath({ cwd: repo.cwd, env: repo.env });
      throw new SecretsFoundError(complete.findings, { removedOnly: complete.removedOnly, quotePath });
    }
    // Claimed before it is stored: a prune running now would otherwise take it for an unused one.
    await claimBundle(store, digest.sha256);
    const path = await storeBundle(store, tmp, digest.sha256, complete.files);
    tmp = undefined;
    const stored = { ...complete, sha256: digest.sha256, bytes: digest.bytes, path };
    // Not remembered (a full disk, a read-only store): the next export only builds it again.
    if (key !== undefined) await rememberBundle(store, key, stored).catch(() => undefined);
    return stored;
  } catch (error) {
    if (error instanceof ReviewRemoteError || !isDiskError(error)) throw error;
    throw storeError(store.root, error);
  } finally {
    if (ahead) await abandon(ahead);
    if (tmp) await rm(tmp, { force: true });
    if (!own) await scratch.dispose();
    forgetJudgedPaths();
  }
}

interface Speculation {
  tmp: string;
  scanner: ContentScanner;
  controller: AbortController;
  done: Promise<Settled<Awaited<ReturnType<typeof writeArchive>>>>;
  /** It is the bundle: its progress, held back until now, is shown from here on. */
  keep(): void;
}

/**
 * The archive pass over the snapshot's whole tree, started while its listing is read and filtered
 * (a filtered tree that leaves nothing out is the snapshot's own tree: the same commit, the same
 * bytes). Not started when the policy or the pathspecs choose paths: they leave some out.
 */
function archiveAhead(
  scratch: Scratch,
  snapshot: Snapshot,
  options: ExportOptions,
  tmp: string,
): Speculation | undefined {
  const { include = [], exclude = [] } = options.policy;
  if ((options.pathspecs ?? []).length > 0 || include.length > 0 || exclude.length > 0) return undefined;
  const controller = new AbortController();
  const scanner = scannerFor(options.policy);
  // Its progress is shown only once it is known to be the bundle: one thrown away would show a
  // progress line that then starts again from nothing, for the archive written in its place.
  let kept = false;
  let held: number | undefined;
  const onProgress = (tarBytes: number) => {
    held = tarBytes;
    if (kept) options.onProgress?.(tarBytes);
  };
  const keep = () => {
    kept = true;
    if (held !== undefined) options.onProgress?.(held);
  };
  const done = commitFilteredTree(scratch, snapshot.commit, [])
    .then((commit) =>
      writeArchive(
        { ...archiveOptions(scratch, commit, options, scanner), onProgress, signal: controller.signal },
        tmp,
      ),
    )
    .then(
      (value) => ({ value }),
      (error: unknown) => ({ error }),
    );
  return { tmp, scanner, controller, done, keep };
}

/** Stops an archive started ahead that is not the bundle, and removes what it wrote. */
async function abandon(ahead: Speculation): Promise<void> {
  ahead.controller.abort();
  await ahead.done;
  await rm(ahead.tmp, { force: true });
}

function unsettle<T>(settled: Settled<T>): T {
  if ("error" in settled) throw settled.error;
  return settled.value;
}

function reuseKeyOf(repo: Repo, commit: string, base: string | undefined, options: ExportOptions): string {
  const pathspecs = keyPathspecs(repo, options.pathspecs);
  return currentReuseKey({ commit, base, pathspecs, policy: options.policy });
}

function isDiskError(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code === "ENOSPC" || code === "EROFS" || code === "EACCES" || code === "EPERM" || code === "EDQUOT";
}

/** Places shown in the hint of a refused export, and findings in its details: with the rest, a screen. */
const HINT_PLACES = 6;
const DETAIL_FINDINGS = 10;

/** Yarn's cache of package archives, which a zero-install repository commits. */
const DEPENDENCY_CACHE = /(?:^|\/)\.yarn\/cache\//;

/**
 * What to do about findings: leave the files out, allow test data by path or the false positives by
 * fingerprint; or, when they are only in lines the range removes, review the tree alone. Many
 * findings are grouped by top directory, with their rules, so that a repository full of test
 * secrets shows the few places they are, and the entry that allows a test directory whole.
 */

export function secretsHints(
  findings: readonly Finding[],
  { removedOnly = false, quotePath }: { removedOnly?: boolean | undefined; quotePath: boolean },
): string[] {
  if (removedOnly) {
    return [
      messages.hintSecretsRemoved,
      messages.hintSecretsRemovedAllow(findings.map((finding) => finding.fingerprint)),
    ];
  }
  const groups = groupFindings(findings);
  const places =
    findings.length > 1
      ? [
          messages.hintSecretsByPlace(findings.length),
          ...groups.slice(0, HINT_PLACES).map((group) => `  ${formatFindingGroup(group, quotePath)}`),
          ...(groups.length > HINT_PLACES
            ? [`  ${messages.hintSecretsMorePlaces(groups.length - HINT_PLACES)}`]
            : []),
        ]
      : [];
  // One entry when every finding a path allows is in test directories of one name, even in several
  // top directories (each package's test/); else the entries for the places that are all test
  // data; with none, the form of one, to fill in.
  const byPath = [...new Set(findings.flatMap((f) => (isAllowedByPathAlone(f.rule) ? [f.path] : [])))];
  const covering = testDirsAllow(byPath);
  // Never an entry that spells a value found in a name (a test directory named after a token).
  const spells = covering !== undefined && redactValues(covering, valuesInNames(findings)) !== undefined;
  const testAllows =
    covering && !spells
      ? [covering]
      : [...new Set(groups.flatMap((group) => (group.testAllow ? [group.testAllow] : [])))];
  const pathAllows =
    testAllows.length > 0 ? testAllows.slice(0, 3).map(escapeForDisplay) : [messages.pathAllowForm];
  // A path alone allows content, not a secret's name or an unread archive: the entry names the rule.
  const content = findings.some((finding) => isAllowedByPathAlone(finding.rule));
  const named = [...new Set(findings.flatMap((f) => (isAllowedByPathAlone(f.rule) ? [] : [f.rule])))];
  // A zero-install repository commits its dependencies' archives: a token a published package
  // shipped (debug 2.6.9's .coveralls.yml) is no secret of the user's, and the whole cache is one place.
  const cache = findings.every((finding) => DEPENDENCY_CACHE.test(finding.path));
  return [
    ...places,
    ...(cache ? [messages.hintSecretsDependencyCache] : []),
    messages.hintSecretsExclude,
    ...(findings.length > 1 && content ? [messages.hintSecretsTestAllow(pathAllows)] : []),
    ...(named.length > 0 ? [messages.hintSecretsRuleAllow(named.sort())] : []),
    messages.hintSecretsAllow(
      findings.map((finding) => finding.fingerprint),
      findings.some((finding) => !isOffLine(finding)),
    ),
    ...(findings.length > 1 ? [messages.hintSecretsListAllowed] : []),
  ];
}

/**
 * The content scan stopped the export; `findings` are redacted and safe to print, their paths as git
 * prints paths under `quotePath` (core.quotePath).
 */
export class SecretsFoundError extends ExportRefusedError {
  /** core.quotePath the paths of its lines and hints are quoted under. */
  readonly quotePath: boolean;

  constructor(
    readonly findings: readonly Finding[],
    how: { removedOnly?: boolean | undefined; quotePath: boolean },
  ) {
    super(messages.secretsFound(findings.length), {
      details: [
        ...findings.slice(0, DETAIL_FINDINGS).map((finding) => formatFinding(finding, how.quotePath)),
        ...(findings.length > DETAIL_FINDINGS
          ? [messages.moreFindings(findings.length - DETAIL_FINDINGS)]
          : []),
      ],
      hints: secretsHints(findings, how),
    });
    this.quotePath = how.quotePath;
  }
}
