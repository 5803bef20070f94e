// One line per secret the content scan found: where, which rule, the redacted value, the fingerprint;
// and the findings grouped by where they are, for the hint of a refused export.
import { isAllowedByPathAlone } from "../secrets/allow.js";
import { type Finding, isAboutName, isOffLine } from "../secrets/finding.js";
import { escapeForDisplay } from "../validate/sanitize.js";
import { showPath } from "./path.js";
import { plural } from "./plural.js";

/**
 * The place of a finding: the file, and inside an archive the member (`keys.zip!/conf/app.env`,
 * nested members joined by `!/`), whose line the finding's is; quoted as git quotes paths under
 * `quotePath` (core.quotePath), the whole place as one path.
 */
function placeOf(finding: Finding, quotePath: boolean): string {
  // A value in the name itself is printed as any value is: redacted, the redaction not quoted.
  if (finding.shownPlace !== undefined) return showPath(finding.shownPlace, quotePath, [finding.redacted]);
  const member = finding.member === undefined ? "" : `!/${finding.member}`;
  return showPath(`${finding.path}${member}`, quotePath);
}

/** A value found in a name, and its redaction (`ghp_…`): where the name is printed, so is the redaction. */
export interface ValueInName {
  value: string;
  redacted: string;
}

/**
 * The values the findings found in their own names (a path's, an archive member's), each once, the
 * longest first: what a path printed beside them (a listed file, a group of the hint) must not show.
 * Read back from the place as printed (`shownPlace`, the name with every copy of the value redacted):
 * the finding keeps no value.
 */
export function valuesInNames(findings: readonly Finding[]): ValueInName[] {
  const values = new Map<string, string>();
  for (const finding of findings) {
    if (finding.shownPlace === undefined || finding.redacted === "") continue;
    const name = finding.member === undefined ? finding.path : `${finding.path}!/${finding.member}`;
    const pieces = finding.shownPlace.split(finding.redacted);
    const copies = pieces.length - 1;
    const length = (name.length - pieces.reduce((sum, piece) => sum + piece.length, 0)) / copies;
    if (copies === 0 || !Number.isInteger(length) || length <= 0) continue;
    const start = (pieces[0] as string).length;
    const value = name.slice(start, start + length);
    // A name that held the redaction's own text is read back wrong: then no value, and no harm.
    if (pieces.join(value) === name) values.set(value, finding.redacted);
  }
  return [...values]
    .map(([value, redacted]) => ({ value, redacted }))
    .sort((a, b) => b.value.length - a.value.length);
}

/**
 * `path` as printed where `values` are known: each value redacted in it, as its finding prints it,
 * and the redactions it then holds (for showPath's `keep`); undefined when it holds none.
 */
export function redactValues(
  path: string,
  values: readonly ValueInName[],
): { shown: string; keep: string[] } | undefined {
  let shown = path;
  const keep: string[] = [];
  for (const { value, redacted } of values) {
    if (!shown.includes(value)) continue;
    shown = shown.replaceAll(value, redacted);
    keep.push(redacted);
  }
  return keep.length === 0 ? undefined : { shown, keep };
}

/**
 * `src/a.ts:3: aws-access-token: AWS access key ID (AKIA…) [fingerprint 9c1e…]`. A finding about a
 * name (a link's target, an archive member's name) or an archive left unread has no line and no
 * value to excerpt: its place says what it is, so the line reads `keys.zip!/id_rsa: <rule>: ...`.
 * A value in a name has no line either, only its excerpt: `cache/ghp_….json: github-pat: ... (ghp_…)`.
 */
export function formatFinding(finding: Finding, quotePath: boolean): string {
  const where = finding.inBase ? " (in the range's base)" : "";
  const nameOnly = isAboutName(finding);
  const line = isOffLine(finding) ? "" : `:${finding.line}`;
  const excerpt = nameOnly ? "" : ` (${finding.redacted})`;
  return `${placeOf(finding, quotePath)}${line}: ${finding.rule}: ${finding.description}${excerpt} [fingerprint ${finding.fingerprint}]${where}`;
}

/** A finding an allow let through, and what allowed it: the marker on its line or the policy entry. */
export function formatAllowed(finding: Finding, quotePath: boolean): string {
  // The policy entry's glob is the repository's own text: a cloned policy may hold escape sequences.
  const by = escapeForDisplay(finding.allowedBy ?? "");
  const reason =
    finding.headLine !== undefined
      ? `${by} on line ${finding.headLine} of the head, which holds the same value`
      : by.startsWith("secrets.allow")
        ? by
        : `${by} on its line`;
  return `${formatFinding(finding, quotePath)}: allowed by ${reason}`;
}

/** Findings of one top directory (or one file at the top): where, how many, of which rules. */
export interface FindingGroup {
  /** The narrowest directory (`cmd/generate/config/rules/`) or file that holds every one of them. */
  where: string;
  count: number;
  /** Rule ids by count, most first. */
  rules: [string, number][];
  /** The path-scoped allow that covers them all, when every one is in test data; else undefined. */
  testAllow?: string;
  /** `where` with the values found in names redacted, when it holds one (`1 in d/ghp_….txt`). */
  shownWhere?: { shown: string; keep: string[] };
}

/** A directory that holds tests or their data, by the names test frameworks and repos use. */
const TEST_DIR =
  /^(?:tests?|testdata|test-?data|testing|__tests__|__fixtures__|__mocks__|__snapshots__|fixtures?|specs?|mocks?)$/i;
/** A test file's name, and the glob of its kind: Go, Jest/Vitest/Mocha, pytest, RSpec, JUnit. */
const TEST_FILES: [RegExp, (match: RegExpExecArray) => string][] = [
  [/_test\.[a-z]+$/, (match) => `*${match[0]}`],
  [/\.(?:test|spec)\.[a-z]+$/, (match) => `*${match[0]}`],
  [/^test_.*\.py$/, () => "test_*.py"],
  [/_spec\.rb$/, () => "*_spec.rb"],
  [/Tests?\.(?:java|kt|cs)$/, (match) => `*${match[0]}`],
];

/** The directory part of `path` up to and including its first test directory (`a/testdata/`). */
function testDirOf(path: string): string | undefined {
  const parts = path.split("/").slice(0, -1);
  const at = parts.findIndex((part) => TEST_DIR.test(part));
  return at === -1 ? undefined : `${parts.slice(0, at + 1).join("/")}/`;
}

/** The glob of the kind of test file `path` names (`*_test.go`), or undefined. */
function testFileGlob(path: string): string | undefined {
  const name = path.slice(path.lastIndexOf("/") + 1);
  for (const [pattern, glob] of TEST_FILES) {
    const match = pattern.exec(name);
    if (match) return glob(match);
  }
  return undefined;
}

/** The same value for every item, or undefined. */
function sole<T>(values: readonly (T | undefined)[]): T | undefined {
  const first = values[0];
  return first !== undefined && values.every((value) => value === first) ? first : undefined;
}

/** The longest directory prefix (`a/b/`) the paths share; "" when they share none. */
function commonDir(paths: readonly string[]): string {
  let dir = paths[0]?.slice(0, (paths[0]?.lastIndexOf("/") ?? -1) + 1) ?? "";
  for (const path of paths)
    while (dir !== "" && !path.startsWith(dir)) dir = dir.slice(0, dir.slice(0, -1).lastIndexOf("/") + 1);
  return dir;
}

/**
 * A path as a gitignore-style glob that matches it literally: `[`, `*`, `?` and `\\` in a directory's
 * name are not wildcards there, and a leading `!` or `#` is not a negation or a comment.
 */
function literalGlob(path: string): string {
  return path.replace(/[[\]*?\\]/g, "\\$&").replace(/^[!#]/, "\\$&");
}

/**
 * One glob for the test directories of one name (`packages/a/test/`, `packages/b/test/`): what they
 * share kept literally, a directory that differs at the same depth a `*` (each package's test
 * directory: `packages`, `*`, `test`, then `**`), and at other depths the directories between their
 * shared start and the name a `**`. Its last directory is always the test directory's own name, so it never
 * matches every path; undefined when the names differ (`test/` and `fixtures/`).
 */
function testDirsGlob(dirs: readonly string[]): string | undefined {
  const parts = dirs.map((dir) => dir.slice(0, -1).split("/"));
  const first = parts[0] ?? [];
  const name = first.at(-1);
  if (name === undefined || !parts.every((each) => each.at(-1) === name)) return undefined;
  const same = (index: number) => parts.every((each) => each[index] === first[index]);
  let components: string[];
  if (parts.every((each) => each.length === first.length)) {
    components = first.map((part, index) => (same(index) ? literalGlob(part) : "*"));
  } else {
    const shared = Math.min(...parts.map((each) => each.length - 1));
    let start = 0;
    while (start < shared && same(start)) start++;
    components = [...first.slice(0, start).map(literalGlob), "**", literalGlob(name)];
  }
  return `${components.join("/")}/**`;
}

/**
 * The entry that allows test data at `paths`, every one of them in a test directory: that directory,
 * or, for several, the glob over them all (testDirsGlob); undefined when one is not in test data.
 */
export function testDirsAllow(paths: readonly string[]): string | undefined {
  const dirs = paths.map(testDirOf);
  if (dirs.length === 0 || !dirs.every((dir): dir is string => dir !== undefined)) return undefined;
  const unique = [...new Set(dirs)];
  const glob = unique.length === 1 ? `${literalGlob(unique[0] as string)}**` : testDirsGlob(unique);
  return glob === undefined ? undefined : `{"path": ${JSON.stringify(glob)}}`;
}

/**
 * A policy entry that allows every finding of a group in test data: its test directories, or the
 * test files of one kind in the directory that holds them all (a test file alone: in its own
 * directory; at the top, `/`-anchored, so that the entry never reaches the test files of other
 * directories).
 */
function testAllowOf(paths: readonly string[], where: string): string | undefined {
  const dirs = testDirsAllow(paths);
  if (dirs !== undefined) return dirs;
  const glob = sole(paths.map(testFileGlob));
  if (glob === undefined) return undefined;
  const holder = where.endsWith("/") ? where : where.slice(0, where.lastIndexOf("/") + 1);
  const scope = holder === "" ? "/" : `${literalGlob(holder)}**/`;
  return `{"path": ${JSON.stringify(`${scope}${glob}`)}}`;
}

/** The findings grouped by top directory (a file at the top is a group of its own), most first. */
export function groupFindings(findings: readonly Finding[]): FindingGroup[] {
  // A value in a name is never printed whole, in a group's place or in the entry offered for it.
  const values = valuesInNames(findings);
  const byTop = new Map<string, Finding[]>();
  for (const finding of findings) {
    const slash = finding.path.indexOf("/");
    const top = slash === -1 ? finding.path : finding.path.slice(0, slash + 1);
    const members = byTop.get(top);
    if (members) members.push(finding);
    else byTop.set(top, [finding]);
  }
  const groups: FindingGroup[] = [];
  for (const [top, members] of byTop) {
    const paths = [...new Set(members.map((finding) => finding.path))];
    const where = paths.length === 1 ? (paths[0] as string) : commonDir(paths) || top;
    const counts = new Map<string, number>();
    for (const { rule } of members) counts.set(rule, (counts.get(rule) ?? 0) + 1);
    const rules = [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
    // A path entry is offered only where it would allow the whole group.
    const byPath = members.every((finding) => isAllowedByPathAlone(finding.rule));
    // Not an entry that spells a value found in a name: the form to fill in is offered instead.
    const testAllow = byPath ? testAllowOf(paths, where) : undefined;
    const offered = testAllow !== undefined && redactValues(testAllow, values) === undefined;
    const shownWhere = redactValues(where, values);
    groups.push({
      where,
      count: members.length,
      rules,
      ...(offered ? { testAllow } : {}),
      ...(shownWhere ? { shownWhere } : {}),
    });
  }
  return groups.sort((a, b) => b.count - a.count || (a.where < b.where ? -1 : 1));
}

/** `412 in testdata/ (generic-api-key 300, aws-access-token 80, +3 rules)`, the place quoted as a path. */
export function formatFindingGroup(group: FindingGroup, quotePath: boolean): string {
  const shown = group.rules.slice(0, 3).map(([rule, count]) => `${rule} ${count}`);
  const more = group.rules.length > 3 ? `, +${plural(group.rules.length - 3, "rule")}` : "";
  const where = group.shownWhere
    ? showPath(group.shownWhere.shown, quotePath, group.shownWhere.keep)
    : showPath(group.where, quotePath);
  return `${group.count} in ${where} (${shown.join(", ")}${more})`;
}
