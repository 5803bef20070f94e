// validate: layer 5, text from the worker made safe for a terminal and for storage.
import { describe, expect, it } from "vitest";
import {
  escapeForDisplay,
  isSafeLine,
  quoteForDisplay,
  sanitizeLine,
  sanitizeText,
} from "../../src/validate/sanitize.js";

describe("validate: sanitizeText", () => {
  it("keeps ordinary text, newlines, tabs and non-ASCII letters", () => {
    const text = "Fix off-by-one.\n\n\tDetails: café, naïve, 日本語, emoji 🎉";
    expect(sanitizeText(text)).toBe(text);
  });

  it("drops a whole CSI sequence, not only its ESC", () => {
    expect(sanitizeText("a\u001b[31mred\u001b[0m b")).toBe("ared b");
    expect(sanitizeText("x\u001b[2J\u001b[1;1Hy")).toBe("xy");
    expect(sanitizeText("x\u001b[?25ly")).toBe("xy");
  });

  it("drops 8-bit CSI sequences", () => {
    expect(sanitizeText("a\u009b31mb")).toBe("ab");
  });

  it("drops OSC sequences with their payload, ended by BEL or ST", () => {
    expect(sanitizeText("a\u001b]0;pwned title\u0007b")).toBe("ab");
    expect(sanitizeText("a\u001b]8;;https://evil.example\u001b\\link\u001b]8;;\u001b\\b")).toBe("alinkb");
    expect(sanitizeText("a\u009d0;title\u009cb")).toBe("ab");
  });

  it("drops an unterminated OSC to the end", () => {
    expect(sanitizeText("ok\u001b]0;never ends")).toBe("ok");
  });

  it("drops DCS/APC strings and two-byte escapes", () => {
    expect(sanitizeText("a\u001bP1$r\u001b\\b")).toBe("ab");
    expect(sanitizeText("a\u001b_apc\u0007b")).toBe("ab");
    expect(sanitizeText("a\u001bcb\u001b(Bc\u001b7d")).toBe("abcd");
    expect(sanitizeText("end\u001b")).toBe("end");
  });

  it("removes C0 controls but \\n and \\t, DEL, CR and BEL", () => {
    expect(sanitizeText("a\u0000b\u0007c\u0008d\rE\u007fF\u000bG\u000cH")).toBe("abcdEFGH");
    expect(sanitizeText("line 1\r\nline 2")).toBe("line 1\nline 2");
  });

  it("removes C1 controls", () => {
    expect(sanitizeText("a\u0080b\u0085c\u0099d")).toBe("abcd");
    // An 8-bit string introducer (here APC) opens a string the terminal swallows: it goes with it.
    expect(sanitizeText("a\u009fhidden\u009cb")).toBe("ab");
  });

  it("removes bidi controls (Trojan Source)", () => {
    const bidi = "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c";
    expect(sanitizeText(`if (admin) {${bidi}} // ok`)).toBe("if (admin) {} // ok");
  });

  it("removes zero-width and other invisible format characters", () => {
    expect(sanitizeText("a\u200bb\u200cc\u200dd\ufeffe\u2060f\u00adg\u{e0041}h")).toBe("abcdefgh");
    expect(sanitizeText("a\u3164b\u115fc")).toBe("abc");
  });

  it("removes lone surrogates but keeps pairs", () => {
    expect(sanitizeText("a\ud800b\udc00c😀")).toBe("abc😀");
  });

  it("turns U+2028 and U+2029 into newlines", () => {
    expect(sanitizeText("a\u2028b\u2029c")).toBe("a\nb\nc");
  });
});

describe("validate: sanitizeLine", () => {
  it("maps newlines and tabs to spaces", () => {
    expect(sanitizeLine("a\nb\tc\r\nd")).toBe("a b c d");
  });

  it("makes a forged remote: line harmless", () => {
    expect(sanitizeLine("progress\r\u001b[2Kremote: all checks passed\u001b]0;x\u0007")).toBe(
      "progressremote: all checks passed",
    );
  });

  it("isSafeLine tells whether anything would change", () => {
    expect(isSafeLine("plain text")).toBe(true);
    expect(isSafeLine("two\nlines")).toBe(false);
    expect(isSafeLine("\u202eevil")).toBe(false);
  });
});

describe("validate: quoteForDisplay", () => {
  it("quotes and shows invisible characters instead of removing them", () => {
    expect(quoteForDisplay(".g\u200cit/config")).toBe('".g\\u{200c}it/config"');
    expect(quoteForDisplay("src/evil\r")).toBe('"src/evil\\u{d}"');
    expect(quoteForDisplay('a"b\\c')).toBe('"a\\"b\\\\c"');
    expect(quoteForDisplay("café")).toBe('"café"');
  });

  it("escapeForDisplay leaves no raw control character", () => {
    const shown = escapeForDisplay("error: invalid path 'x\u001b[31m\u202e'");
    expect(shown).toBe("error: invalid path 'x\\u{1b}[31m\\u{202e}'");
    expect(isSafeLine(shown)).toBe(true);
  });
});
