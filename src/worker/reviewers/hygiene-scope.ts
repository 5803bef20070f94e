// Files whose bytes are the point, which hygiene never touches nor reports on: test snapshots, patch
// files, whatever sits under a fixture directory (compared byte for byte by the tests that read
// them) and the files beside a test directory's snapshots (the inputs those snapshots quote); and
// the Markdown files whose trailing spaces can be hard line breaks.

// Jest's `__snapshots__/*.snap`, a resolver's own extension (`.shot`) and directories named for their
// snapshots (`docs-eslint-output-snapshots/`, `__image_snapshots__/`).
const SNAPSHOT = /(?:^|\/)[^/]*snapshots[^/]*\/|\.(?:snap|shot)$/i;
const PATCH_FILE = /\.(?:diff|patch|rej|orig)$/i;
const FIXTURE_DIRS = new Set([
  "fixtures",
  "fixture",
  "__fixtures__",
  "__testfixtures__",
  "testdata",
  "test-data",
  "test_data",
]);
const TEST_DIRS = new Set(["test", "tests", "__tests__", "spec", "specs"]);
// Under a test directory, a fixture directory named for what it holds fixtures of: babel's
// `test/define-helper-fixtures/`, `test/regenerator-fixtures/` (outside one, `babel-helper-fixtures`
// is a package's source).
const NAMED_FIXTURE_DIR = /[-_.]fixtures?$/;
const MARKDOWN = /\.(?:md|markdown|mdown|mkdn|mkd|mdwn|mdx|rmd)$/i;

/**
 * The directories, under a test directory, that hold a `__snapshots__` directory: their files are
 * the inputs a snapshot test prints verbatim (prettier's `tests/format/**`), or the tests whose
 * strings the snapshots quote, so their trailing spaces are part of what the tests compare.
 */
export function snapshotInputDirs(paths: Iterable<string>): Set<string> {
  const dirs = new Set<string>();
  for (const path of paths) {
    const at = path.startsWith("__snapshots__/") ? 0 : path.indexOf("/__snapshots__/") + 1;
    if (at <= 0) continue;
    const dir = path.slice(0, at - 1);
    if (dir.split("/").some((name) => TEST_DIRS.has(name.toLowerCase()))) dirs.add(dir);
  }
  return dirs;
}

/**
 * Why hygiene leaves `path` alone, or undefined when it may look at it. `snapshotInputs` are the
 * directories of snapshotInputDirs for the tree `path` is in.
 */
export function leftAloneReason(
  path: string,
  snapshotInputs: ReadonlySet<string> = new Set(),
): string | undefined {
  if (SNAPSHOT.test(path)) return "snapshot";
  if (PATCH_FILE.test(path)) return "patch file";
  const dirs = path.split("/").slice(0, -1);
  if (dirs.some((dir) => FIXTURE_DIRS.has(dir.toLowerCase()))) return "fixture";
  const inTest = dirs.findIndex((dir) => TEST_DIRS.has(dir.toLowerCase()));
  if (inTest >= 0 && dirs.slice(inTest + 1).some((dir) => NAMED_FIXTURE_DIR.test(dir.toLowerCase())))
    return "fixture";
  if (snapshotInputs.has(dirs.join("/"))) return "snapshot test input";
  return undefined;
}

export function isMarkdownPath(path: string): boolean {
  return MARKDOWN.test(path);
}

// Lines that end a block where they stand, so that no trailing whitespace of theirs is a break
// (CommonMark 4.1, 4.2, 4.3): an ATX heading, a thematic break, a setext heading's underline.
const BLOCK_LINE = /^ {0,3}(?:#{1,6}(?:[ \t]|$)|([-*_])(?:[ \t]*\1){2,}[ \t]*$|(?:=+|-+)[ \t]*$)/;

/**
 * A Markdown line whose trailing whitespace must stay: two or more spaces are a hard line break
 * (CommonMark 6.7), and stripping what follows a final backslash would make one. A line of
 * whitespace alone is blank, and a heading or a thematic break has no line to break onto: theirs goes.
 */
export function isMarkdownBreak(body: string): boolean {
  const content = body.replace(/[ \t]+$/, "");
  if (content === body || content.trim() === "" || BLOCK_LINE.test(content)) return false;
  return / {2,}$/.test(body) || content.endsWith("\\");
}
