// Where a SARIF run points: artifact locations resolved through `originalUriBaseIds` and the run's
// artifacts to tree paths, and regions turned into edit ranges in the run's column unit.

import { workerMessages as m } from "../messages.js";
import type { SarifArtifactLocation, SarifRegion, SarifRun } from "./sarif-schema.js";
import { type TreePath, treePathFromUri } from "./tree-paths.js";
import type { ColumnUnit, EditRange } from "./types.js";

/** Base ids chained deeper than this are a loop or an attack, not a layout. */
const MAX_BASE_DEPTH = 8;

const ABSOLUTE = /^(?:[A-Za-z][A-Za-z0-9+.-]*:|\/)/;

export class SarifLocations {
  /** SARIF's default column unit is the UTF-16 code unit; a run may say code points. */
  readonly unit: ColumnUnit;

  constructor(
    private readonly run: SarifRun,
    private readonly treeRoot: string,
  ) {
    this.unit = run.columnKind === "unicodeCodePoints" ? "codePoint" : "utf16";
  }

  /**
   * The prefix a base id stands for. A base the log does not define (`%SRCROOT%`, `SRCROOT`) is the
   * directory the tool ran in, which is the tree.
   */
  private base(id: string | undefined, depth: number): string | undefined {
    if (id === undefined) return "";
    if (depth > MAX_BASE_DEPTH) return undefined;
    const bases = this.run.originalUriBaseIds;
    const entry = bases && Object.hasOwn(bases, id) ? bases[id] : undefined;
    if (entry?.uri === undefined) return "";
    if (ABSOLUTE.test(entry.uri)) return withSlash(entry.uri);
    const parent = this.base(entry.uriBaseId, depth + 1);
    return parent === undefined ? undefined : withSlash(parent + entry.uri);
  }

  /**
   * The file a location names: its URI as written (for warnings) and where that is in the tree, or
   * undefined when it names none.
   */
  resolve(location: SarifArtifactLocation | undefined): { uri: string; path: TreePath } | undefined {
    let target = location;
    if (target?.uri === undefined && target?.index !== undefined && target.index >= 0) {
      target = this.run.artifacts?.[target.index]?.location;
    }
    const uri = target?.uri;
    if (uri === undefined) return undefined;
    if (ABSOLUTE.test(uri)) return { uri, path: treePathFromUri(uri, this.treeRoot) };
    const base = this.base(target?.uriBaseId, 0);
    if (base === undefined) return { uri, path: { ok: false, reason: m.baseLoop } };
    return { uri: base + uri, path: treePathFromUri(base + uri, this.treeRoot) };
  }

  /**
   * A deleted region as an edit range. Byte offsets win when given: they mean the same in every tool,
   * while columns do not (ast-grep 0.51 counts code points and does not say so).
   */
  editRange(region: SarifRegion): EditRange | string {
    const { startLine, endLine, byteOffset, charOffset } = region;
    if (byteOffset !== undefined && byteOffset >= 0) {
      return {
        kind: "bytes",
        offset: byteOffset,
        length: region.byteLength ?? 0,
        ...(startLine !== undefined ? { startLine } : {}),
        ...(endLine !== undefined ? { endLine } : {}),
      };
    }
    if (startLine !== undefined) {
      const end = {
        line: endLine ?? startLine,
        ...(region.endColumn !== undefined ? { column: region.endColumn } : {}),
      };
      return {
        kind: "lineColumn",
        start: { line: startLine, column: region.startColumn ?? 1 },
        end,
        unit: this.unit,
      };
    }
    if (charOffset !== undefined && charOffset >= 0) {
      return { kind: "chars", offset: charOffset, length: region.charLength ?? 0, unit: this.unit };
    }
    return m.noRegionStart;
  }
}

function withSlash(uri: string): string {
  return uri === "" || uri.endsWith("/") ? uri : `${uri}/`;
}
