// Archives in the export (gzip, zip and its kin, tar) are opened and every member is scanned as a
// file of its own, one nesting level deeper: by name and by content. An archive that cannot be read
// within the limits is one finding, uninspectable-archive, that names the reason.

import { TarFormatError, TarReader, TarType } from "../tar/reader.js";
import { gunzipWithin, gzipMemberName } from "./decode/gzip.js";
import { UninspectableError } from "./decode/limits.js";
import { expandedName, expandWithTool, type SystemTool, systemToolFor } from "./decode/system-tools.js";
import { readZipEntries } from "./decode/zip.js";
import { type FileScan, type Finding, UNINSPECTABLE_RULE } from "./finding.js";
import { matchLinkTarget, nameTextFindings, secretNameFindings } from "./link-target.js";
import { createFinding, type NestedSite } from "./scan-settings.js";

const CHUNK = 64 * 1024;

type NewScan = (site: NestedSite) => FileScan;

function uninspectable(site: NestedSite, reason: string): Finding[] {
  const finding = createFinding(site, {
    line: 1,
    rule: UNINSPECTABLE_RULE,
    description: `archive not inspected: ${reason}`,
    secret: site.member ?? "",
  });
  return finding ? [finding] : [];
}

function memberSite(site: NestedSite, name: string): NestedSite {
  return {
    ...site,
    member: site.member === undefined ? name : `${site.member}!/${name}`,
    depth: site.depth + 1,
    rulePath: name,
  };
}

/** Name and content findings of one member held in memory. */
function scanMember(site: NestedSite, name: string, data: Buffer, newScan: NewScan): Finding[] {
  const inner = memberSite(site, name);
  const scan = newScan(inner);
  for (let at = 0; at < data.length; at += CHUNK) scan.write(data.subarray(at, at + CHUNK));
  return [...secretNameFindings(inner, name), ...nameTextFindings(inner, name, name), ...scan.end()];
}

/**
 * A gzip or zip file, or one compressed in a form a system tool expands: held (bounded) until its
 * end, then expanded member by member.
 */
class BufferedArchiveScan implements FileScan {
  private chunks: Buffer[] = [];
  private bytes = 0;

  constructor(
    private readonly form: "gzip" | "zip" | SystemTool,
    private readonly site: NestedSite,
    private readonly newScan: NewScan,
  ) {}

  write(chunk: Buffer): void {
    this.bytes += chunk.length;
    if (this.bytes > this.site.settings.limits.maxArchiveBytes) this.chunks = [];
    else this.chunks.push(chunk);
  }

  end(): Finding[] {
    const { maxArchiveBytes } = this.site.settings.limits;
    if (this.bytes > maxArchiveBytes) return uninspectable(this.site, `larger than ${maxArchiveBytes} bytes`);
    const data = Buffer.concat(this.chunks);
    this.chunks = [];
    const findings: Finding[] = [];
    try {
      const path = this.site.rulePath ?? this.site.path;
      if (this.form === "gzip") {
        const name = gzipMemberName(data, path);
        findings.push(...scanMember(this.site, name, gunzipWithin(data, this.site.budget), this.newScan));
      } else if (this.form !== "zip") {
        const expanded = expandWithTool(this.form, data, this.site.budget);
        findings.push(...scanMember(this.site, expandedName(this.form, path), expanded, this.newScan));
      } else {
        for (const entry of readZipEntries(data, this.site.budget)) {
          findings.push(...scanMember(this.site, entry.name, entry.data, this.newScan));
        }
      }
    } catch (error) {
      if (!(error instanceof UninspectableError)) throw error;
      findings.push(...uninspectable(this.site, error.message));
    }
    return findings;
  }
}

/** A tar, read as it streams: each file member goes to a scan of its own, link targets are judged. */
class TarArchiveScan implements FileScan {
  private readonly reader: TarReader;
  private readonly findings: Finding[] = [];
  private member: FileScan | undefined;
  private failure: string | undefined;

  constructor(
    private readonly site: NestedSite,
    newScan: NewScan,
  ) {
    this.reader = new TarReader({
      entry: (entry) => {
        if (entry.index >= site.settings.limits.maxEntries) {
          throw new UninspectableError(`more than ${site.settings.limits.maxEntries} entries`);
        }
        const inner = memberSite(site, entry.path);
        this.findings.push(
          ...secretNameFindings(inner, entry.path),
          ...nameTextFindings(inner, entry.path, entry.path),
        );
        if (entry.type === TarType.symlink || entry.type === TarType.hardlink) {
          this.findings.push(
            ...secretNameFindings(inner, entry.linkpath, matchLinkTarget(entry.path, entry.linkpath)),
            ...nameTextFindings(inner, entry.linkpath, entry.path),
          );
        }
        if (entry.type !== TarType.file) return undefined;
        const scan = newScan(inner);
        this.member = scan;
        return (chunk) => scan.write(chunk);
      },
      entryEnd: () => {
        if (this.member) this.findings.push(...this.member.end());
        this.member = undefined;
      },
    });
  }

  write(chunk: Buffer): void {
    if (this.failure === undefined) this.guard(() => this.reader.write(chunk));
  }

  end(): Finding[] {
    if (this.failure === undefined) this.guard(() => this.reader.end());
    if (this.failure !== undefined) this.findings.push(...uninspectable(this.site, this.failure));
    return this.findings;
  }

  private guard(step: () => void): void {
    try {
      step();
    } catch (error) {
      if (!(error instanceof UninspectableError || error instanceof TarFormatError)) throw error;
      this.failure = error.message;
    }
  }
}

/** A file that is one finding, `reason`, whatever it holds: its bytes are not read. */
function unread(site: NestedSite, reason: string): FileScan {
  return { write: () => undefined, end: () => uninspectable(site, reason) };
}

/**
 * What opens an archive of `form` found at `site` (`sealed`: a format node cannot open, named by
 * `format`); past the nesting limit, a refusal. A sealed format is read with its system tool where
 * there is one (system-tools.ts); 7z and RAR, archives of many members, are never read: each is one
 * finding, as an encrypted zip entry is, so that what it holds never leaves unread.
 */
export function openArchive(
  form: "gzip" | "zip" | "tar" | { sealed: string },
  site: NestedSite,
  newScan: NewScan,
): FileScan {
  const { maxDepth } = site.settings.limits;
  if (site.depth >= maxDepth) return unread(site, `nested deeper than ${maxDepth} archives`);
  if (form === "tar") return new TarArchiveScan(site, newScan);
  if (typeof form === "string") return new BufferedArchiveScan(form, site, newScan);
  const tool = systemToolFor(form.sealed);
  if (tool) return new BufferedArchiveScan(tool, site, newScan);
  return unread(site, `compressed as ${form.sealed}, which the scan cannot read`);
}
