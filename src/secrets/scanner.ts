// Scans the exact bytes of every bundled file for credentials (design §7, content scan): the public
// API. The rules are in content-rules.ts; how one file's bytes are read (text, UTF-16/32, archives,
// binary key material) in file-scan.ts; the windowed text scan in text-scan.ts.
import { matchGlob } from "../paths/glob.js";
import { GITLEAKS_ALLOW_MARKER, INLINE_ALLOW_MARKER } from "./allow.js";
import { CONTENT_RULES, type ContentRule } from "./content-rules.js";
import { type ArchiveLimits, DEFAULT_ARCHIVE_LIMITS, ExpansionBudget } from "./decode/limits.js";
import { ContentFileScan } from "./file-scan.js";
import type { FileScan, Finding, SecretAllow } from "./finding.js";
import { matchLinkTarget, nameTextFindings, secretNameFindings } from "./link-target.js";
import { RuleMatcher, type WindowMatcher } from "./matcher.js";
import type { ScanSettings } from "./scan-settings.js";
import { TextScan } from "./text-scan.js";

export interface ContentScanner {
  scanFile(path: string): FileScan;
  scanText(path: string, text: string): Finding[];
  /**
   * A symbolic link at `path` whose target is `target`: the target string leaves with the bundle, so
   * it is scanned as text, and a target that names a secret file (`../.env`, `id_rsa`) is a finding.
   */
  scanLinkTarget(path: string, target: string): Finding[];
  /**
   * A bundled file's path leaves with the bundle (its tar entry's name): scanned as text, so a token
   * in a file or directory name (`cache/ghp_….json`) is a finding as one in a file is.
   */
  scanPath(path: string): Finding[];
  /**
   * The findings an allow let through so far, each once, with `allowedBy`: what `export --list`
   * shows would leave because of a marker or a policy entry.
   */
  allowed(): Finding[];
}

export interface ContentScannerOptions {
  allow?: SecretAllow[];
  /** Honour gitleaks' `gitleaks:allow` marker like `review-remote:allow` (default true). */
  gitleaksAllow?: boolean;
  /** Matcher for `allow[].path` globs; gitignore-style (src/paths/glob.ts) by default. */
  matchPath?: (glob: string, path: string) => boolean;
  /** Replaces the built-in rules (benchmarks, tests). */
  rules?: readonly ContentRule[];
  /** Replaces some of the archive limits (tests). */
  limits?: Partial<ArchiveLimits>;
}

/**
 * The built-in rules' matchers, by their markers: compiling one (its keyword automaton) is tens of
 * milliseconds, and a range review makes a scanner for the tree and one for the base's blobs.
 */
const builtIn = new Map<string, RuleMatcher>();

/** A matcher of `ordered` (the rules as a scanner orders them); the built-in rules' one is shared. */
function matcherOf(ordered: readonly ContentRule[], markers: readonly string[], builtInRules: boolean) {
  if (!builtInRules) return new RuleMatcher(ordered, markers);
  const key = markers.join("\0");
  let matcher = builtIn.get(key);
  if (!matcher) {
    matcher = new RuleMatcher(ordered, markers);
    builtIn.set(key, matcher);
  }
  return matcher;
}

export function createContentScanner(options: ContentScannerOptions = {}): ContentScanner {
  const rules = options.rules ?? CONTENT_RULES;
  const everywhere = rules.filter((rule) => rule.paths === undefined);
  const somewhere = rules.filter((rule) => rule.paths !== undefined);
  // In this order, a file's rules are [...everywhere, ...the ones its name adds], as they are tried.
  const markers = [INLINE_ALLOW_MARKER, ...(options.gitleaksAllow === false ? [] : [GITLEAKS_ALLOW_MARKER])];
  // Compiled when the first path or byte is scanned, not here: an export makes its scanner before it
  // starts git archive, and the automaton's tens of milliseconds are better spent while git works.
  let all: RuleMatcher | undefined;
  const allRules = () => {
    all ??= matcherOf([...everywhere, ...somewhere], markers, options.rules === undefined);
    return all;
  };
  const matchers = new Map<string, WindowMatcher>();
  // The last path asked about: a file's name is scanned, then its content, each asking for its rules.
  let last: { path: string; matcher: WindowMatcher } | undefined;
  // By place and value: a text read two ways (UTF-16 and 8-bit) may find one allowed value twice.
  const allowed = new Map<string, Finding>();
  const settings: ScanSettings = {
    allow: options.allow ?? [],
    onAllowed(finding) {
      const key = `${finding.path}\0${finding.member ?? ""}\0${finding.line}\0${finding.fingerprint}`;
      if (!allowed.has(key)) allowed.set(key, finding);
    },
    matchPath: options.matchPath ?? matchGlob,
    limits: { ...DEFAULT_ARCHIVE_LIMITS, ...options.limits },
    matcherFor(path) {
      if (last?.path === path) return last.matcher;
      const here = somewhere.filter((rule) => rule.paths?.test(path));
      const key = here.map((rule) => rule.id).join("\0");
      let matcher = matchers.get(key);
      if (!matcher) {
        matcher =
          here.length === somewhere.length ? allRules() : allRules().only(new Set([...everywhere, ...here]));
        matchers.set(key, matcher);
      }
      last = { path, matcher };
      return matcher;
    },
  };
  const scanFile = (path: string): FileScan =>
    new ContentFileScan({ settings, path, depth: 0, budget: new ExpansionBudget(settings.limits) });
  return {
    scanFile,
    scanText(path, text) {
      const scan = scanFile(path);
      scan.write(Buffer.from(text, "utf8"));
      return scan.end();
    },
    scanLinkTarget(path, target) {
      const site = { settings, path };
      const text = new TextScan(site);
      text.write(Buffer.from(target, "utf8"));
      return [...secretNameFindings(site, target, matchLinkTarget(path, target)), ...text.end()];
    },
    scanPath: (path) => nameTextFindings({ settings, path }, path),
    allowed: () => [...allowed.values()],
  };
}
