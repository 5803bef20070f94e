// Scans the exact bytes of every bundled file for credentials (design §7, content scan): the public
// API. The rules are in content-rules.ts; the streaming, windowed scan of one file in file-scan.ts.
import { matchGlob } from "../paths/glob.js";
import { INLINE_ALLOW_MARKER } from "./allow.js";
import { CONTENT_RULES, type ContentRule } from "./content-rules.js";
import { type ScanSettings, StreamingFileScan } from "./file-scan.js";
import { RuleMatcher } from "./matcher.js";

export interface SecretAllow {
  rule?: string;
  /** Gitignore-style glob. */
  path?: string;
  fingerprint?: string;
}

export interface Finding {
  path: string;
  /** 1-based line of the start of the secret. */
  line: number;
  rule: string;
  description: string;
  /** At most the first 4 characters of the secret, then "…". */
  redacted: string;
  /** Hex digest of path, rule and secret; `secrets.allow: [{ fingerprint }]` allows this value. */
  fingerprint: string;
}

export interface FileScan {
  write(chunk: Buffer): void;
  end(): Finding[];
}

export interface ContentScanner {
  scanFile(path: string): FileScan;
  scanText(path: string, text: string): Finding[];
}

export interface ContentScannerOptions {
  allow?: SecretAllow[];
  /** Matcher for `allow[].path` globs; gitignore-style (src/paths/glob.ts) by default. */
  matchPath?: (glob: string, path: string) => boolean;
  /** Replaces the built-in rules (benchmarks, tests). */
  rules?: readonly ContentRule[];
}

export function createContentScanner(options: ContentScannerOptions = {}): ContentScanner {
  const rules = options.rules ?? CONTENT_RULES;
  const matchers = new Map<string, RuleMatcher>();
  const settings: ScanSettings = {
    allow: options.allow ?? [],
    matchPath: options.matchPath ?? matchGlob,
    matcherFor(path) {
      const active = rules.filter((rule) => rule.paths === undefined || rule.paths.test(path));
      const key = active.map((rule) => rule.id).join("\0");
      let matcher = matchers.get(key);
      if (!matcher) {
        matcher = new RuleMatcher(active, INLINE_ALLOW_MARKER);
        matchers.set(key, matcher);
      }
      return matcher;
    },
  };
  return {
    scanFile: (path) => new StreamingFileScan(path, settings),
    scanText(path, text) {
      const scan = new StreamingFileScan(path, settings);
      scan.write(Buffer.from(text, "utf8"));
      return scan.end();
    },
  };
}
