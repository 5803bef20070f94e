// A path as git prints one (quote.c): and what the reports set into one, a redacted value, kept as it is.
import { describe, expect, test } from "vitest";
import { quoteLikeGit } from "../../src/git/quote.js";

describe("quoteLikeGit", () => {
  test("as git ls-files prints it: non-ASCII in octal under core.quotePath, controls always", () => {
    expect(quoteLikeGit("a b.txt", true)).toBe("a b.txt");
    expect(quoteLikeGit("caf\u00e9.txt", true)).toBe('"caf\\303\\251.txt"');
    expect(quoteLikeGit("caf\u00e9.txt", false)).toBe("caf\u00e9.txt");
    expect(quoteLikeGit('tab\there "q" \\.txt', false)).toBe('"tab\\there \\"q\\" \\\\.txt"');
  });

  test("a redacted value set into the path stands as it is, inside the quotes the rest needs", () => {
    expect(quoteLikeGit("d/ghp_….txt", true, ["ghp_…"])).toBe("d/ghp_….txt");
    expect(quoteLikeGit("d/ghp_….txt", true)).toBe('"d/ghp_\\342\\200\\246.txt"');
    expect(quoteLikeGit("caf\u00e9/ghp_…/ghp_….txt", true, ["ghp_…"])).toBe(
      '"caf\\303\\251/ghp_…/ghp_….txt"',
    );
    expect(quoteLikeGit("caf\u00e9/ghp_….txt", false, ["ghp_…"])).toBe("caf\u00e9/ghp_….txt");
    expect(quoteLikeGit("caf\u00e9/AKIA…/ghp_….txt", true, ["ghp_…", "AKIA…"])).toBe(
      '"caf\\303\\251/AKIA…/ghp_….txt"',
    );
  });
});
