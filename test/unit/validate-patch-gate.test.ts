// validate: layer 2, the patch text gate.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { checkPatchText } from "../../src/validate/patch-gate.js";
import { parseQuotedName } from "../../src/validate/quoted-name.js";

const LIMIT = { maxPatchBytes: 1024 * 1024 };
const FIXTURES = fileURLToPath(new URL("../fixtures/diffs/", import.meta.url));

const NEW_FILE = [
  "diff --git a/src/x.ts b/src/x.ts",
  "new file mode 100644",
  "index 0000000..587be6b",
  "--- /dev/null",
  "+++ b/src/x.ts",
  "@@ -0,0 +1,2 @@",
  "+x",
  "+y",
  "",
].join("\n");

const EDIT = [
  "diff --git a/src/app.ts b/src/app.ts",
  "index c7a0d71..a3852f2 100644",
  "--- a/src/app.ts",
  "+++ b/src/app.ts",
  "@@ -2,3 +2,3 @@ export function main(): number {",
  " a",
  "-b",
  "+c",
  " d",
  "",
].join("\n");

describe("validate: checkPatchText on the corpus", () => {
  // The fixtures whose text alone is enough to refuse them; the rest are refused after git applied them.
  const refusedByText = new Set([
    "07",
    "09",
    "11",
    "13",
    "15",
    "17",
    "19",
    "21",
    "23",
    "45",
    "47",
    "49",
    "51",
    "53",
    // The even half: the same classes in other spellings.
    "08",
    "10",
    "12",
    "14",
    "16",
    "18",
    "20",
    "22",
    "24",
    "46",
    "48",
    "50",
    "52",
    "54",
    "66",
  ]);
  const files = readdirSync(FIXTURES).filter((name) => name.endsWith(".diff"));

  for (const file of files) {
    const prefix = file.slice(0, 2);
    const refused = refusedByText.has(prefix);
    it(`${refused ? "refuses" : "passes"} ${file}`, () => {
      const problems = checkPatchText(readFileSync(join(FIXTURES, file), "utf8"), LIMIT);
      if (refused) expect(problems).not.toEqual([]);
      else expect(problems).toEqual([]);
    });
  }
});

describe("validate: checkPatchText", () => {
  it("passes ordinary git diff output", () => {
    expect(checkPatchText(NEW_FILE, LIMIT)).toEqual([]);
    expect(checkPatchText(EDIT, LIMIT)).toEqual([]);
    expect(checkPatchText(EDIT + NEW_FILE, LIMIT)).toEqual([]);
  });

  it("refuses a patch over the byte limit", () => {
    expect(checkPatchText(NEW_FILE, { maxPatchBytes: 50 })).toEqual([
      `patch is ${Buffer.byteLength(NEW_FILE)} bytes, over the limit of 50`,
    ]);
  });

  it("counts the limit in UTF-8 bytes", () => {
    const patch = NEW_FILE.replace("+x", `+${"é".repeat(100)}`);
    expect(checkPatchText(patch, { maxPatchBytes: patch.length + 10 })).toHaveLength(1);
  });

  it("refuses what does not start with diff --git", () => {
    expect(checkPatchText(`\n${NEW_FILE}`, LIMIT)[0]).toMatch(/does not start with "diff --git "/);
    expect(checkPatchText("--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n", LIMIT)[0]).toMatch(/diff --git/);
  });

  it("refuses a NUL anywhere", () => {
    expect(checkPatchText(NEW_FILE.replace("+x", "+x\0"), LIMIT)).toEqual(["patch contains a NUL byte"]);
  });

  it("refuses a lone surrogate anywhere", () => {
    expect(checkPatchText(NEW_FILE.replace("+x", "+x\ud800"), LIMIT)).toEqual([
      "patch contains a lone surrogate (not valid Unicode)",
    ]);
    expect(checkPatchText(NEW_FILE.replace("+x", "+x😀"), LIMIT)).toEqual([]);
  });

  it("refuses a truncated patch", () => {
    expect(checkPatchText(NEW_FILE.slice(0, -1), LIMIT)[0]).toMatch(/does not end with a newline/);
    expect(checkPatchText(NEW_FILE.replace("+y\n", ""), LIMIT).join()).toMatch(/ends inside a hunk/);
  });

  it("refuses a CR in any header line", () => {
    const headers = ["diff --git a/src/x.ts b/src/x.ts", "new file mode 100644", "index 0000000..587be6b"];
    for (const header of [...headers, "--- /dev/null", "+++ b/src/x.ts"]) {
      const problems = checkPatchText(NEW_FILE.replace(`${header}\n`, `${header}\r\n`), LIMIT);
      expect(problems.join(), header).toMatch(/carriage return in a header line/);
    }
    const rename = "diff --git a/a.ts b/b.ts\nsimilarity index 100%\nrename from a.ts\r\nrename to b.ts\n";
    expect(checkPatchText(rename, LIMIT).join()).toMatch(/carriage return/);
  });

  it("allows a CR at the end of content lines (CRLF files)", () => {
    const crlf = EDIT.replace(" a\n", " a\r\n").replace("-b\n", "-b\r\n").replace("+c\n", "+c\r\n");
    expect(checkPatchText(crlf, LIMIT)).toEqual([]);
  });

  it("refuses binary patches unless allowed", () => {
    const binary =
      "diff --git a/x.bin b/x.bin\nnew file mode 100644\nindex 0000000..1111111\nGIT binary patch\nliteral 3\nKcmZ?wZ~y=R00000\n\nliteral 0\nHcmV?d00001\n\n";
    expect(checkPatchText(binary, LIMIT).join()).toMatch(/binary patches are not accepted/);
    expect(checkPatchText(binary, { ...LIMIT, allowBinary: true })).toEqual([]);
    const differ =
      "diff --git a/x.bin b/x.bin\nindex 1111111..2222222 100644\nBinary files a/x.bin and b/x.bin differ\n";
    expect(checkPatchText(differ, LIMIT).join()).toMatch(/binary patches are not accepted/);
  });

  it("refuses copies", () => {
    const copy =
      "diff --git a/src/a.ts b/src/b.ts\nsimilarity index 100%\ncopy from src/a.ts\ncopy to src/b.ts\n";
    expect(checkPatchText(copy, LIMIT).join()).toMatch(/copies are not accepted/);
  });

  it("refuses a traditional patch glued after a git one", () => {
    const glued = `${NEW_FILE}--- /dev/null\n+++ /etc/cron.d/evil\n@@ -0,0 +1 @@\n+x\n`;
    expect(checkPatchText(glued, LIMIT)).not.toEqual([]);
  });

  it("refuses unknown lines between sections and inside hunks", () => {
    expect(checkPatchText(`${NEW_FILE}garbage\n`, LIMIT).join()).toMatch(/unexpected line after a hunk/);
    expect(checkPatchText(NEW_FILE.replace("+y", "*y"), LIMIT).join()).toMatch(
      /unexpected line inside a hunk/,
    );
    const header = NEW_FILE.replace("new file mode 100644", "new file mode 100644\nx-unknown: 1");
    expect(checkPatchText(header, LIMIT).join()).toMatch(/not a line of git diff output/);
  });

  it("refuses a hunk longer than its header", () => {
    expect(checkPatchText(NEW_FILE.replace("+y\n", "+y\n+z\n"), LIMIT).join()).toMatch(
      /unexpected line after a hunk/,
    );
    const short = NEW_FILE.replace("@@ -0,0 +1,2 @@", "@@ -0,0 +1 @@");
    expect(checkPatchText(short, LIMIT)).not.toEqual([]);
  });

  it("accepts the no-newline marker and an empty context line", () => {
    expect(checkPatchText(NEW_FILE.replace("+y\n", "+y\n\\ No newline at end of file\n"), LIMIT)).toEqual([]);
    expect(checkPatchText(EDIT.replace(" d\n", "\n"), LIMIT)).toEqual([]);
  });

  it("refuses names without the a/ b/ prefixes", () => {
    const noPrefix = NEW_FILE.replace("+++ b/src/x.ts", "+++ /etc/x.ts");
    expect(checkPatchText(noPrefix, LIMIT).join()).toMatch(/does not start with "b\/"/);
  });

  it("checks every name a section mentions", () => {
    const rename =
      "diff --git a/src/a.ts b/.GIT/x\nsimilarity index 100%\nrename from src/a.ts\nrename to .GIT/x\n";
    expect(checkPatchText(rename, LIMIT).join()).toMatch(/\.git look-alike/);
    const dash = NEW_FILE.replaceAll("src/x.ts", "src/-x.ts");
    expect(checkPatchText(dash, LIMIT).join()).toMatch(/starting with "-"/);
    const dotdot = NEW_FILE.replaceAll("src/x.ts", "src/../../x.ts");
    expect(checkPatchText(dotdot, LIMIT).join()).toMatch(/"\.\." component/);
  });

  it("passes a rename whose names contain spaces", () => {
    const rename =
      "diff --git a/my file.ts b/your file.ts\nsimilarity index 100%\nrename from my file.ts\nrename to your file.ts\n";
    expect(checkPatchText(rename, LIMIT)).toEqual([]);
  });

  it("passes octal-escaped UTF-8 names and refuses escaped control bytes", () => {
    const cafe = NEW_FILE.replaceAll("a/src/x.ts", '"a/caf\\303\\251.ts"').replaceAll(
      "b/src/x.ts",
      '"b/caf\\303\\251.ts"',
    );
    expect(checkPatchText(cafe, LIMIT)).toEqual([]);
    for (const controlEscape of ["\\t", "\\n", "\\a", "\\033", "\\177", "\\001"]) {
      const bad = NEW_FILE.replaceAll("a/src/x.ts", `"a/x${controlEscape}"`).replaceAll(
        "b/src/x.ts",
        `"b/x${controlEscape}"`,
      );
      expect(checkPatchText(bad, LIMIT).join(), controlEscape).toMatch(/escapes (a|the) control/);
    }
  });

  it("refuses an escaped C1 control or bidi character in a name", () => {
    for (const bytes of ["\\302\\233", "\\342\\200\\256", "\\342\\200\\213"]) {
      const bad = NEW_FILE.replaceAll("a/src/x.ts", `"a/x${bytes}"`).replaceAll(
        "b/src/x.ts",
        `"b/x${bytes}"`,
      );
      expect(checkPatchText(bad, LIMIT), bytes).not.toEqual([]);
    }
  });

  it("refuses more files than allowed", () => {
    expect(checkPatchText(NEW_FILE + EDIT, { ...LIMIT, maxFiles: 1 }).join()).toMatch(/more than 1 files/);
  });
});

describe("validate: parseQuotedName", () => {
  it("decodes escapes the way git does", () => {
    expect(parseQuotedName('"a/caf\\303\\251.ts" rest')).toEqual({
      name: "a/café.ts",
      rest: " rest",
      problems: [],
    });
    expect(parseQuotedName('"a\\"b\\\\c"')).toEqual({ name: 'a"b\\c', rest: "", problems: [] });
  });

  it("reports invalid UTF-8, bad escapes and a missing quote", () => {
    expect(parseQuotedName('"a\\377"').problems).toEqual(["quoted name is not valid UTF-8"]);
    expect(parseQuotedName('"a\\q"').problems).toEqual(["quoted name has an invalid escape"]);
    expect(parseQuotedName('"abc').problems).toEqual(["quoted name is not terminated"]);
  });
});
