// Files GitHub's linguist counts generated with no attribute saying so (its generated.rb and
// vendor.yml): lock files (npm's, pnpm's, Bun's, Deno's, Composer's, Cargo's, Poetry's, PDM's,
// uv's, pixi's, Pipenv's, Go dep's and Glide's, SwiftPM's Package.resolved, Nix's flake.lock,
// Bazel's MODULE.bazel.lock, mise's, Julia's Manifest.toml, Terraform's), installed dependencies
// and Yarn's committed release, plugins, SDKs and zero-install package cache by name, and by
// content source maps, minified or source-mapped JavaScript and CSS, and Go code marked generated;
// and, of any kind, a file with a line longer than anyone types, or whose first lines say in a
// comment that a tool wrote it (`@generated`, `DO NOT EDIT`, `This file is auto-generated`). Their
// bytes belong to the tool that wrote them, which writes them again: a source map has no final
// newline by design (axios commits 2.5 MB of them in dist/), and neither a lock file nor Yarn's
// 3.6 MB `.yarn/releases/yarn-4.x.cjs` (Yarn asks for it to be committed) over the size hygiene
// reports is a case for Git LFS. `-linguist-generated` on a path says it is the project's own
// after all. Not Babel's runtime helpers outside node_modules/ (`@babel/runtime/helpers/`, Babel's
// own `packages/babel-runtime/helpers/`): linguist has no rule for them, and the few Babel commits
// (its legacy `toArray.js`, `typeof.js`...) are kept on purpose and edited in its own commits.

const GENERATED_NAME =
  /(?:^|\/)(?:package-lock\.json|npm-shrinkwrap\.json|pnpm-lock\.yaml|bun\.lockb?|deno\.lock|composer\.lock|Cargo\.lock|poetry\.lock|pdm\.lock|uv\.lock|pixi\.lock|Pipfile\.lock|Gopkg\.lock|glide\.lock|Package\.resolved|flake\.lock|MODULE\.bazel\.lock|mise(?:\.[^/]+)?\.lock|(?:Julia)?Manifest(?:-v\d+\.\d+)?\.toml|\.terraform\.lock\.hcl|\.pnp\.[^/]+)$|(?:^|\/)node_modules\/|\.(?:css|[cm]?js)\.map$|[.-]min\.(?:css|[cm]?js)$|(?:^|\/)\.yarn\/(?:releases|plugins|sdks|unplugged|cache)\//;

/** Source map revision 2 and later begin with their version. */
const SOURCE_MAP_START = /^\{"version":\d+,/;
/** A source-map reference, which linguist looks for in the last two lines. */
const SOURCE_MAP_REFERENCE = /^\/[*/][#@] source(?:Mapping)?URL|sourceURL=/;
/** Go's convention for generated code (`go generate`, protoc-gen-go, stringer). */
const GO_GENERATED = /^\/\/ Code generated .*/;
const SCRIPT_OR_STYLE = new Set([".js", ".cjs", ".mjs", ".css"]);
/** The lines a generator's banner is looked for in: after a license header, Meta's `@generated` too. */
const BANNER_LINES = 10;
/** A comment line of any common syntax (`//`, `/*`, ` *`, `#`, `<!--`, `--`, `;`, `%`, a docstring). */
const COMMENT_LINE = /^\s*(?:\/\/|\/\*|\*|#|<!--|--|;|%|"""|''')/;
/** Prose, where `#` is a heading and `*` a list item: only an HTML comment is a banner there. */
const PROSE = /\.(?:md|markdown|mdx|txt|rst|adoc)$/i;
const PROSE_COMMENT_LINE = /^\s*<!--/;
/**
 * What generators write in that comment: Meta's `@generated`, protoc's and most others' `DO NOT EDIT`
 * (or MODIFY), `auto-generated`, `automatically generated` (babel's tsconfig.json files).
 */
const GENERATED_BANNER =
  /@generated\b|\bdo not (?:edit|modify)\b|\bauto-?generated\b|\bautomatically generated\b|\bgenerated automatically\b/i;
/** Over this average line length, JavaScript or CSS is minified. */
const MINIFIED_LINE_LENGTH = 110;

/** True when `path`'s name alone says a tool wrote it. */
export function isGeneratedName(path: string): boolean {
  return GENERATED_NAME.test(path);
}

/**
 * A line no one types: over this many characters, the file is a tool's export (requests' logo is an
 * SVG of one 883 KB line, and its final newline would be a 1.7 MB patch).
 */
const MACHINE_LINE_LENGTH = 16 * 1024;

function hasMachineLine(text: string): boolean {
  for (let start = 0; start < text.length; ) {
    const newline = text.indexOf("\n", start);
    const end = newline === -1 ? text.length : newline;
    if (end - start > MACHINE_LINE_LENGTH) return true;
    start = end + 1;
  }
  return false;
}

/** True when one of the first lines is a comment that says a tool wrote the file. */
function hasGeneratedBanner(path: string, text: string): boolean {
  const comment = PROSE.test(path) ? PROSE_COMMENT_LINE : COMMENT_LINE;
  return text
    .split("\n", BANNER_LINES)
    .some((line) => line.length <= 1024 && comment.test(line) && GENERATED_BANNER.test(line));
}

/** True when `text`, the content of `path`, says a tool wrote it (its name aside). */
export function isGeneratedText(path: string, text: string): boolean {
  if (hasMachineLine(text) || hasGeneratedBanner(path, text)) return true;
  const extension = /\.[^./]*$/.exec(path)?.[0].toLowerCase();
  if (extension === ".map") return SOURCE_MAP_START.test(text);
  if (extension === ".go") return text.split("\n", 40).some((line) => GO_GENERATED.test(line));
  // JavaScript modules too (`.cjs`, `.mjs`), which linguist's list predates: rollup writes axios's.
  if (!SCRIPT_OR_STYLE.has(extension ?? "")) return false;
  const lines = text.split("\n");
  if (lines.slice(-2).some((line) => SOURCE_MAP_REFERENCE.test(line))) return true;
  return (text.length - (lines.length - 1)) / lines.length > MINIFIED_LINE_LENGTH;
}
