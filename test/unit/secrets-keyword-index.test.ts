import { describe, expect, test } from "vitest";
import { type Keyword, KeywordIndex } from "../../src/secrets/keyword-index.js";
import { fakeChars } from "../fixtures/secrets/fake-tokens.js";

/** Every (offset, id) a byte-by-byte search finds, in offset order (ties by id). */
function naive(keywords: readonly Keyword[], text: string): string[] {
  const found: string[] = [];
  for (let offset = 0; offset < text.length; offset++) {
    keywords.forEach((keyword, id) => {
      const here = text.slice(offset, offset + keyword.text.length);
      if (keyword.exact ? here === keyword.text : here.toLowerCase() === keyword.text.toLowerCase()) {
        found.push(`${offset}:${id}`);
      }
    });
  }
  return found;
}

function indexed(keywords: readonly Keyword[], text: string): string[] {
  const { ids, offsets } = new KeywordIndex(keywords).scan(Buffer.from(text, "latin1"));
  return ids
    .map((id, k) => ({ id, offset: offsets[k] as number }))
    .sort((a, b) => a.offset - b.offset || a.id - b.id)
    .map(({ id, offset }) => `${offset}:${id}`);
}

describe("keyword index", () => {
  const keywords: Keyword[] = [
    { text: "secret", exact: false },
    { text: "AKIA", exact: true },
    { text: "sk-", exact: false },
    { text: "sk-ant-", exact: false },
    { text: "ret", exact: false },
    { text: "://", exact: false },
    { text: "review-remote:allow", exact: true },
  ];

  test("finds overlapping keywords, one inside another, in any case unless exact", () => {
    const text = "SECRET=sk-ant-x AKIA akia https://x SeCrEt review-remote:allow REVIEW-REMOTE:ALLOW";
    expect(indexed(keywords, text)).toEqual(naive(keywords, text));
    expect(indexed(keywords, text)).toContain("16:1");
    expect(indexed(keywords, text)).not.toContain("21:1");
  });

  test("reports hits in increasing offset order", () => {
    const { offsets } = new KeywordIndex(keywords).scan(Buffer.from("xsk-ant-secretret sk-"));
    expect(offsets).toEqual([...offsets].sort((a, b) => a - b));
    expect(offsets.length).toBeGreaterThanOrEqual(5);
  });

  test("agrees with a byte-by-byte search on random text full of near misses", () => {
    const alphabet = "sSkK-eEcCrRtTaAnN:/ IiAaKk";
    for (let seed = 1; seed <= 20; seed++) {
      const text = fakeChars(alphabet, 4000, seed);
      expect(indexed(keywords, text), `seed ${seed}`).toEqual(naive(keywords, text));
    }
  });

  test("agrees with a byte-by-byte search for hundreds of keywords sharing prefixes and suffixes", () => {
    // Short words over a small alphabet: deep failure chains, keywords inside keywords, a state that
    // ends several keywords at once; as many keywords as the built-in rules make (with base64 forms).
    for (let seed = 1; seed <= 5; seed++) {
      const words = fakeChars("abcAB-", 4000, seed)
        .split("-")
        .filter((word) => word.length > 0);
      const many = [...new Set(words)].slice(0, 300).map((text, id) => ({ text, exact: id % 3 === 0 }));
      const text = fakeChars("abcABC-x", 3000, seed + 100);
      expect(many.length).toBeGreaterThan(200);
      expect(indexed(many, text), `seed ${seed}`).toEqual(naive(many, text));
    }
  });

  test("finds keywords with bytes above 0x7f and at the very ends of the data", () => {
    const latin: Keyword[] = [
      { text: "\xe9t\xe9", exact: false },
      { text: "end", exact: false },
    ];
    expect(indexed(latin, "\xe9t\xe9 and end")).toEqual(["0:0", "8:1"]);
  });
});
