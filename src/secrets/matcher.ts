// Runs the content rules over one window: one keyword pass over the bytes, then each rule's regex
// only where one of its keywords starts (every match starts with a keyword, see content-rules.ts).

import { base64Fragments, decodeAround } from "./base64-keywords.js";
import { shannonEntropy } from "./entropy.js";
import { type Keyword, KeywordIndex } from "./keyword-index.js";
import { type ContentRule, isExactKeyword, isRejected } from "./rules/rule.js";

interface RuleHit {
  /** Offset of the secret in the window. */
  index: number;
  rule: ContentRule;
  secret: string;
}

/** An inline allow marker's occurrence: its offset in the window, and which marker it is. */
export interface MarkerHit {
  index: number;
  marker: string;
}

export interface WindowMatches {
  hits: RuleHit[];
  /** The extra marker keywords found (the inline allow markers). */
  markers: MarkerHit[];
}

interface CompiledRule {
  rule: ContentRule;
  /** Sticky (tried at one offset) with indices (to locate the secret group). */
  regex: RegExp;
}

/** What a text scan runs on each window: the rules that apply to its file. */
export interface WindowMatcher {
  findMatches(bytes: Uint8Array, textOf: () => string, from: number, to: number): WindowMatches;
}

export class RuleMatcher implements WindowMatcher {
  private readonly compiled: CompiledRule[];
  private readonly index: KeywordIndex;
  /** Keyword id → the rules that start with it; a marker's id maps to none. */
  private readonly rulesOf: number[][] = [];
  /** Keyword id → the marker it is, for the markers' ids. */
  private readonly markerOf = new Map<number, string>();
  /** The ids of the rules' keywords as base64 spells them (base64-keywords.ts). */
  private readonly base64Ids = new Set<number>();

  constructor(rules: readonly ContentRule[], markers: readonly string[]) {
    this.compiled = rules.map((rule) => ({
      rule,
      regex: new RegExp(rule.pattern.source, `${rule.pattern.flags.replace(/[gyd]/g, "")}yd`),
    }));
    const keywords: Keyword[] = [];
    const ids = new Map<string, number>();
    const idOf = (text: string, exact: boolean): number => {
      const key = `${exact ? "=" : "~"}${text}`;
      let id = ids.get(key);
      if (id === undefined) {
        id = keywords.push({ text, exact }) - 1;
        ids.set(key, id);
      }
      this.rulesOf[id] ??= [];
      return id;
    };
    rules.forEach((rule, ruleIndex) => {
      for (const keyword of rule.keywords)
        this.rulesOf[idOf(keyword, isExactKeyword(keyword))]?.push(ruleIndex);
    });
    for (const marker of markers) this.markerOf.set(idOf(marker, true), marker);
    for (const keyword of new Set(rules.flatMap((rule) => rule.keywords))) {
      for (const fragment of base64Fragments(keyword)) this.base64Ids.add(idOf(fragment, true));
    }
    this.index = new KeywordIndex(keywords);
  }

  /**
   * Hits whose secret starts in [from, to) and markers that start there, both in offset order.
   * `textOf` gives `bytes` as text (latin1: one character per byte), asked only if a keyword is there.
   */
  findMatches(bytes: Uint8Array, textOf: () => string, from: number, to: number): WindowMatches {
    return this.findOf(bytes, textOf, from, to, undefined, false);
  }

  /**
   * This matcher with only some of its rules (the others' keywords are still found, and ignored): one
   * keyword automaton for every file, whatever rules its name adds.
   */
  only(rules: ReadonlySet<ContentRule>): WindowMatcher {
    const skipped = Uint8Array.from(this.compiled, (compiled) => (rules.has(compiled.rule) ? 0 : 1));
    return {
      findMatches: (bytes, textOf, from, to) => this.findOf(bytes, textOf, from, to, skipped, false),
    };
  }

  private findOf(
    bytes: Uint8Array,
    textOf: () => string,
    from: number,
    to: number,
    skipped: Uint8Array | undefined,
    decoded: boolean,
  ): WindowMatches {
    const { ids, offsets } = this.index.scan(bytes);
    const markers: MarkerHit[] = [];
    const hits: RuleHit[] = [];
    if (ids.length === 0) return { hits, markers };
    const text = textOf();
    // Keyword offsets of the rules that have one here (most windows: none, or a few rules).
    const starts: number[][] = [];
    const rules: number[] = [];
    const base64At: number[] = [];
    for (let k = 0; k < ids.length; k++) {
      const id = ids[k] as number;
      const offset = offsets[k] as number;
      const marker = this.markerOf.get(id);
      if (marker !== undefined && offset >= from && offset < to) markers.push({ index: offset, marker });
      if (!decoded && offset >= from && offset < to && this.base64Ids.has(id)) base64At.push(offset);
      for (const ruleIndex of this.rulesOf[id] as number[]) {
        if (skipped?.[ruleIndex]) continue;
        const list = starts[ruleIndex];
        if (list === undefined) {
          starts[ruleIndex] = [offset];
          rules.push(ruleIndex);
        } else list.push(offset);
      }
    }
    // In rule order, as the sort below keeps the order of hits at one offset.
    rules.sort((a, b) => a - b);
    for (const ruleIndex of rules) {
      collectHits(
        this.compiled[ruleIndex] as CompiledRule,
        text,
        starts[ruleIndex] as number[],
        from,
        to,
        hits,
      );
    }
    if (base64At.length > 0) this.decodedHits(text, base64At, skipped, hits);
    return { hits: hits.sort((a, b) => a.index - b.index), markers };
  }

  /**
   * The rules' hits in the base64 around each encoded keyword, one level deep, each placed where
   * its encoded keyword is (the window and line that hold it) with the decoded secret.
   */
  private decodedHits(
    text: string,
    offsets: readonly number[],
    skipped: Uint8Array | undefined,
    hits: RuleHit[],
  ): void {
    let decodedTo = -1;
    for (const offset of offsets) {
      if (offset < decodedTo) continue;
      const run = decodeAround(text, offset);
      decodedTo = run.end;
      for (const bytes of run.decoded) {
        const inner = this.findOf(bytes, () => bytes.toString("latin1"), 0, bytes.length, skipped, true);
        for (const hit of inner.hits) hits.push({ index: offset, rule: hit.rule, secret: hit.secret });
      }
    }
  }
}

/** Tries the rule at each keyword offset; like a global regex, a match hides the offsets inside it. */
function collectHits(
  compiled: CompiledRule,
  text: string,
  offsets: readonly number[],
  from: number,
  to: number,
  hits: RuleHit[],
): void {
  const { regex, rule } = compiled;
  let matchEnd = 0;
  for (const offset of offsets) {
    if (offset < matchEnd) continue;
    if (offset >= to) break;
    regex.lastIndex = offset;
    const match = regex.exec(text);
    if (match === null) continue;
    matchEnd = offset + match[0].length;
    const group = secretGroupOf(rule, match);
    const span = match.indices?.[group];
    const secret = match[group];
    if (span === undefined || secret === undefined) continue;
    // A hit belongs to the window where its secret starts, or its keyword when the secret is
    // captured in a lookbehind before it: each text offset is in one window's accept range.
    const owner = Math.max(span[0], offset);
    if (owner < from || owner >= to) continue;
    if (isCredential(rule, secret, match)) hits.push({ index: span[0], rule, secret });
  }
}

function secretGroupOf(rule: ContentRule, match: RegExpExecArray): number {
  if (rule.secretGroup !== undefined) return rule.secretGroup;
  for (let group = 1; group < match.length; group++) if (match[group] !== undefined) return group;
  return 0;
}

function isCredential(rule: ContentRule, secret: string, match: RegExpExecArray): boolean {
  if (isRejected(rule, secret, match)) return false;
  return rule.entropy === undefined || shannonEntropy(secret) >= rule.entropy;
}
