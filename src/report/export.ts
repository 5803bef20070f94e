// What `export` shows: the listing of `--list` (what would leave, what stays and why, what the scan
// would say), or the stored bundle; as text or as one JSON document.
import type { ExportListing, StoredBundle } from "../export/bundle.js";
import { type Exclusion, NOT_INCLUDED, OUTSIDE_PATHSPECS } from "../export/filter.js";
import { escapeForDisplay } from "../validate/sanitize.js";
import { formatAllowed, formatFinding, redactValues, type ValueInName, valuesInNames } from "./finding.js";
import { formatSize, type Output, paint } from "./output.js";
import { showPath } from "./path.js";
import { plural } from "./plural.js";

/** The reasons that say only that a path was not asked for. */
const UNSELECTED = new Set([OUTSIDE_PATHSPECS, NOT_INCLUDED]);

/**
 * `quotePath`: core.quotePath; every path of the text is printed as git prints paths under it (a
 * tab or a line break always quoted, a non-ASCII byte when it is true). JSON keeps paths as they are.
 */
export function printListing(
  listing: ExportListing,
  { json, quotePath }: { json: boolean; quotePath: boolean },
  output: Output,
): void {
  if (json) {
    const { snapshot, files, excluded, findings, allowed, range } = listing;
    const change = range
      ? {
          range: {
            base: range.base,
            head: range.head,
            paths: range.paths,
            patchBytes: Buffer.byteLength(range.patch),
          },
        }
      : {};
    output.json({ snapshot, files, excluded: excluded.map(asJson), findings, allowed, ...change });
    return;
  }
  const total = listing.files.reduce((sum, file) => sum + file.size, 0);
  // Every file kept back: the lines below say why, and no list of files follows a colon.
  output.out(
    listing.files.length === 0
      ? `Would send no files from ${listing.snapshot.commit}.`
      : `Would send ${plural(listing.files.length, "file")} (${formatSize(total)}) from ${listing.snapshot.commit}:`,
  );
  // Paths are the repository's own, but a cloned repository's names may hold escape sequences. A
  // value the scan found in a name is redacted in it here too, as its finding prints it.
  const values = valuesInNames([...listing.findings, ...listing.allowed]);
  const show = (path: string) => listedPath(path, values, quotePath);
  for (const file of listing.files) output.out(`${formatSize(file.size).padStart(11)}  ${show(file.path)}`);
  if (listing.range) {
    const { base, head, paths, patch } = listing.range;
    output.out(
      `and the change ${base.slice(0, 10)}..${head.slice(0, 10)}: ${plural(paths.length, "changed path")}, ` +
        `their patch ${formatSize(Buffer.byteLength(patch))}`,
    );
  }
  if (listing.excluded.length > 0) {
    output.out(`Would keep back ${plural(listing.excluded.length, "path")}:`);
    // What a pathspec or the policy's include leaves out is the rest of the tree, asked for: counted,
    // not listed (`-- src` in babel would print 27k lines over the secret names that matter).
    const unselected = listing.excluded.filter((entry) => UNSELECTED.has(entry.reason));
    const listed = listing.excluded.filter((entry) => !UNSELECTED.has(entry.reason));
    const shown = listed.map((entry) => ({ path: show(entry.path), reason: shownReason(entry, show) }));
    const width = Math.min(48, Math.max(0, ...shown.map((e) => e.path.length)));
    for (const entry of shown) output.out(`  ${entry.path.padEnd(width)}  ${entry.reason}`);
    for (const reason of UNSELECTED) {
      const count = unselected.filter((entry) => entry.reason === reason).length;
      if (count > 0) output.out(`  ${plural(count, "path")} ${reason} (--json lists them)`);
    }
  }
  if (listing.allowed.length > 0) {
    output.out(
      `Would let through ${plural(listing.allowed.length, "allowed finding")} (${allowedBy(listing)}):`,
    );
    for (const finding of listing.allowed) output.out(`  ${formatAllowed(finding, quotePath)}`);
  }
  if (listing.findings.length > 0) {
    output.out(paint(output, "red", `The content scan would stop the export (${listing.findings.length}):`));
    for (const finding of listing.findings) output.out(`  ${formatFinding(finding, quotePath)}`);
  }
}

/** Said after a listed name with a value redacted in it: the listing still names the file, --json whole. */
const REDACTED_NAME = "(redacted: its name holds a credential the scan found; --json names it whole)";

/** A listed path as git prints it, and any value found in a name redacted in it, as its finding has it. */
function listedPath(path: string, values: readonly ValueInName[], quotePath: boolean): string {
  const redacted = redactValues(path, values);
  if (redacted === undefined) return showPath(path, quotePath);
  return `${showPath(redacted.shown, quotePath, redacted.keep)}  ${REDACTED_NAME}`;
}

/**
 * Why a path stays, the name it quotes (the path it collides with, a link's target) printed as the
 * listing prints paths, not in the worker's own spelling of it (`"Caf\\u00e9.txt"`).
 */
function shownReason(entry: Exclusion, show: (path: string) => string): string {
  const { reason, quoted } = entry;
  if (quoted === undefined || !reason.includes(quoted.as)) return escapeForDisplay(reason);
  const at = reason.indexOf(quoted.as);
  const [before, after] = [reason.slice(0, at), reason.slice(at + quoted.as.length)];
  return `${escapeForDisplay(before)}${show(quoted.text)}${escapeForDisplay(after)}`;
}

/** A kept-back path as JSON prints it: the path and why, as the text says it. */
function asJson({ path, reason }: Exclusion): { path: string; reason: string } {
  return { path, reason };
}

/** What let the allowed findings through, with how many each: `142 by gitleaks:allow, 3 by ...`. */
function allowedBy(listing: ExportListing): string {
  const counts = new Map<string, number>();
  for (const { allowedBy = "" } of listing.allowed) counts.set(allowedBy, (counts.get(allowedBy) ?? 0) + 1);
  return [...counts]
    .sort((a, b) => b[1] - a[1])
    .map(([by, count]) => `${count} by ${escapeForDisplay(by)}`)
    .join(", ");
}

/** `export --json` when the content scan stopped it: the findings, redacted. */
export function printRefusedExport(findings: readonly unknown[], output: Output): void {
  output.json({ findings });
}

/**
 * The bundle stored, and where `-o` wrote it too: stdout says what was written where (the stored
 * bundle, or the file `-o` named, as it was given), stderr what it holds and where the store keeps it.
 */
export function printBundle(
  bundle: StoredBundle,
  json: boolean,
  output: Output,
  written?: { given: string; path: string },
): void {
  if (json) {
    const { sha256, bytes, path, files, excluded, snapshot } = bundle;
    output.json({
      sha256,
      bytes,
      path,
      ...(written ? { output: written.path } : {}),
      files: files.length,
      excluded: excluded.map(asJson),
      snapshot,
    });
    return;
  }
  output.out(bundle.sha256);
  output.out(written ? written.given : bundle.path);
  if (!output.quiet) {
    const where = written ? ` to ${written.given} (stored as ${bundle.path})` : "";
    // Nothing kept back has no why to look up.
    const kept =
      bundle.excluded.length === 0
        ? "nothing kept back"
        : `${plural(bundle.excluded.length, "path")} kept back (git review-remote export --list shows why)`;
    output.err(
      `Exported ${plural(bundle.files.length, "file")} (${formatSize(bundle.bytes)} compressed)${where}; ${kept}.`,
    );
  }
}
