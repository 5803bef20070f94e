// What `export` shows: the listing of `--list` (what would leave, what stays and why, what the scan
// would say), or the stored bundle; as text or as one JSON document.
import type { ExportListing, StoredBundle } from "../export/bundle.js";
import { escapeForDisplay } from "../validate/sanitize.js";
import { formatAllowed, formatFinding } from "./finding.js";
import { formatSize, type Output, paint, plural } from "./output.js";

export function printListing(listing: ExportListing, json: boolean, output: Output): void {
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
    output.json({ snapshot, files, excluded, findings, allowed, ...change });
    return;
  }
  const total = listing.files.reduce((sum, file) => sum + file.size, 0);
  output.out(
    `Would send ${plural(listing.files.length, "file")} (${formatSize(total)}) from ${listing.snapshot.commit}:`,
  );
  // Paths are the repository's own, but a cloned repository's names may hold escape sequences.
  for (const file of listing.files)
    output.out(`${formatSize(file.size).padStart(11)}  ${escapeForDisplay(file.path)}`);
  if (listing.range) {
    const { base, head, paths, patch } = listing.range;
    output.out(
      `and the change ${base.slice(0, 10)}..${head.slice(0, 10)}: ${plural(paths.length, "changed path")}, ` +
        `their patch ${formatSize(Buffer.byteLength(patch))}`,
    );
  }
  if (listing.excluded.length > 0) {
    output.out(`Would keep back ${plural(listing.excluded.length, "path")}:`);
    const width = Math.min(48, Math.max(...listing.excluded.map((e) => e.path.length)));
    for (const entry of listing.excluded) {
      output.out(`  ${escapeForDisplay(entry.path).padEnd(width)}  ${escapeForDisplay(entry.reason)}`);
    }
  }
  if (listing.allowed.length > 0) {
    output.out(
      `Would let through ${plural(listing.allowed.length, "allowed finding")} (${allowedBy(listing)}):`,
    );
    for (const finding of listing.allowed) output.out(`  ${formatAllowed(finding)}`);
  }
  if (listing.findings.length > 0) {
    output.out(paint(output, "red", `The content scan would stop the export (${listing.findings.length}):`));
    for (const finding of listing.findings) output.out(`  ${formatFinding(finding)}`);
  }
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

export function printBundle(bundle: StoredBundle, json: boolean, output: Output): void {
  if (json) {
    const { sha256, bytes, path, files, excluded, snapshot } = bundle;
    output.json({ sha256, bytes, path, files: files.length, excluded, snapshot });
    return;
  }
  output.out(bundle.sha256);
  output.out(bundle.path);
  if (!output.quiet) {
    output.err(
      `Exported ${plural(bundle.files.length, "file")} (${formatSize(bundle.bytes)} compressed); ` +
        `${plural(bundle.excluded.length, "path")} kept back (git review-remote export --list shows why).`,
    );
  }
}
