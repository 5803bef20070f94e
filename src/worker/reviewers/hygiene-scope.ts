// Files whose bytes are the point, which hygiene never touches nor reports on: test snapshots, patch
// files, and whatever sits under a fixture directory (compared byte for byte by the tests that read
// them); and the Markdown files whose trailing spaces can be hard line breaks.

const SNAPSHOT = /(?:^|\/)__snapshots__\/|\.snap$/;
const PATCH_FILE = /\.(?:diff|patch|rej|orig)$/i;
const FIXTURE_DIRS = new Set([
  "fixtures",
  "fixture",
  "__fixtures__",
  "__testfixtures__",
  "testdata",
  "test-data",
  "test_data",
  "__snapshots__",
  "snapshots",
]);
const MARKDOWN = /\.(?:md|markdown|mdown|mkdn|mkd|mdwn|mdx|rmd)$/i;

/** Why hygiene leaves `path` alone, or undefined when it may look at it. */
export function leftAloneReason(path: string): string | undefined {
  if (SNAPSHOT.test(path)) return "snapshot";
  if (PATCH_FILE.test(path)) return "patch file";
  const dirs = path.split("/").slice(0, -1);
  if (dirs.some((dir) => FIXTURE_DIRS.has(dir.toLowerCase()))) return "fixture";
  return undefined;
}

export function isMarkdownPath(path: string): boolean {
  return MARKDOWN.test(path);
}

/**
 * A Markdown line whose trailing whitespace must stay: two or more spaces are a hard line break
 * (CommonMark 6.7), and stripping what follows a final backslash would make one.
 */
export function isMarkdownBreak(body: string): boolean {
  const content = body.replace(/[ \t]+$/, "");
  if (content === body) return false;
  return / {2,}$/.test(body) || content.endsWith("\\");
}
