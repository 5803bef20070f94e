// validate: layer 4 path sanity and collisions.
import { describe, expect, it } from "vitest";
import { collisionKey, foldComponent, isDotGitLike } from "../../src/paths/fold.js";
import { checkNewName, checkPath } from "../../src/paths/result.js";
import { findCollisions, treeEntries } from "../../src/validate/collisions.js";

describe("validate: checkPath accepts ordinary paths", () => {
  const good = [
    "src/app.ts",
    "src/my file.ts",
    "docs/café.md",
    "docs/日本語.md",
    ".gitkeep",
    "sub/.gitkeep",
    ".github-notes.md",
    "git/config",
    "a-b/c_d.e",
    "x~",
    "src/c:d.txt",
    "cc:/x",
    "file.txt.~1~",
    "a".repeat(255),
  ];
  for (const path of good) {
    it(`accepts ${JSON.stringify(path)}`, () => {
      expect(checkPath(path)).toEqual([]);
    });
  }
});

describe("validate: checkPath refuses", () => {
  const bad: [string, RegExp][] = [
    ["", /empty/],
    ["/etc/passwd", /absolute/],
    ["a/../b", /"\.\." component/],
    ["../x", /"\.\." component/],
    ["./x", /"\." component/],
    ["a//b", /empty component/],
    ["a/", /empty component/],
    ["a\\b", /backslash/],
    ["C:/Windows/System32/evil.dll", /drive letter/],
    ["c:evil.txt", /drive letter/],
    ["-rf", /starting with "-"/],
    ["src/-rf", /starting with "-"/],
    ["--upload-pack=x", /starting with "-"/],
    ["a\u0000b", /control character/],
    ["a\rb", /control character/],
    ["a\nb", /control character/],
    ["a\tb", /control character/],
    ["a\u001b[31mb", /control character/],
    ["a\u007fb", /control character/],
    ["a\u009bb", /control character/],
    ["src/\u202egnp.ts", /bidi/],
    ["src/\u2066x", /bidi/],
    ["src/\u200ex", /bidi/],
    ["src/\u061cx", /bidi/],
    ["src/a\u200bb", /invisible/],
    ["src/a\ufeffb", /invisible/],
    ["src/a\u2028b", /invisible/],
    ["src/a\u3164b", /invisible/],
    ["src/a\ud800b", /invisible/],
    ["src/a\ufffdb", /not valid UTF-8/],
    [`${"a/".repeat(2100)}x`, /over 4096 bytes/],
    ["a".repeat(256), /over 255 bytes/],
    ["é".repeat(128), /over 255 bytes/],
  ];
  for (const [path, reason] of bad) {
    it(`refuses ${JSON.stringify(path.length > 40 ? `${path.slice(0, 40)}...` : path)}`, () => {
      expect(checkPath(path).join("\n")).toMatch(reason);
    });
  }
});

describe("validate: .git look-alikes", () => {
  const lookAlikes = [
    ".git",
    ".GIT",
    ".Git",
    ".gIt",
    ".git.",
    ".git..",
    ".git ",
    ".git. . ",
    ".git::$INDEX_ALLOCATION",
    ".git:stream",
    "git~1",
    "GIT~1",
    "Git~2",
    ".g\u200cit",
    ".g\u200dit",
    ".\u200egit",
    ".gi\u200ft",
    "\u202a.git",
    ".git\u206a",
    "\ufeff.git",
    ".g\u00adit",
    "\uff0e\uff47\uff49\uff54",
    ".g\u0131t",
  ];
  for (const component of lookAlikes) {
    it(`treats ${JSON.stringify(component)} as .git, at any depth`, () => {
      expect(isDotGitLike(component)).toBe(true);
      expect(checkPath(`${component}/config`).join()).toMatch(/\.git look-alike/);
      expect(checkPath(`sub/dir/${component}/hooks/x`).join()).toMatch(/\.git look-alike/);
      expect(checkPath(`sub/${component}`).join()).toMatch(/\.git look-alike/);
    });
  }

  it("leaves names that merely start with .git alone", () => {
    for (const component of [".gitkeep", ".github", ".git-blame-ignore-revs", "git", "gitx~1x", "_git"]) {
      expect(isDotGitLike(component), component).toBe(false);
    }
  });

  it("refuses other NTFS 8.3 short names", () => {
    expect(checkPath("GITHUB~1/workflows/x.yml").join()).toMatch(/8\.3 short-name/);
    expect(checkPath("gitmod~1").join()).toMatch(/8\.3 short-name/);
    expect(checkPath("PROGRA~1.TXT").join()).toMatch(/8\.3 short-name/);
  });
});

describe("validate: foldComponent and collisionKey", () => {
  it("folds case, normalisation, ignorables and NTFS trailing characters", () => {
    expect(foldComponent("README.md")).toBe("readme.md");
    expect(foldComponent("cafe\u0301")).toBe("caf\u00e9");
    expect(foldComponent("a.txt. ")).toBe("a.txt");
    expect(foldComponent("St\u200craße")).toBe("strasse");
  });

  it("gives NFC and NFD spellings the same key", () => {
    expect(collisionKey("src/caf\u00e9.ts")).toBe(collisionKey("src/cafe\u0301.ts"));
    expect(collisionKey("Src/App.ts")).toBe(collisionKey("src/app.ts"));
    expect(collisionKey("src/a.ts")).not.toBe(collisionKey("src/b.ts"));
  });
});

describe("validate: findCollisions", () => {
  const base = treeEntries(["README.md", "src/app.ts", "src/utils/math.ts"]);

  it("lists every file and the directories above them", () => {
    expect([...treeEntries(["a/b/c.ts", "d.ts"])].sort()).toEqual(["a", "a/b", "a/b/c.ts", "d.ts"]);
  });

  it("finds a new NFD twin of a new NFC name", () => {
    const problems = findCollisions(["README.md", "src/caf\u00e9.ts", "src/cafe\u0301.ts"], base);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/are the same file/);
  });

  it("finds a new case twin of an existing file or directory, once", () => {
    expect(findCollisions(["README.md", "readme.MD"], base)).toHaveLength(1);
    const problems = findCollisions(["src/app.ts", "SRC/app.ts", "SRC/x.ts"], base);
    expect(problems).toEqual([
      'paths "SRC" and "src" are the same file on case-insensitive or Unicode-normalising file systems',
    ]);
  });

  it("finds a new file that a file system would name like an existing directory", () => {
    expect(findCollisions(["src/app.ts", "SRC"], base)).toHaveLength(1);
  });

  it("ignores collisions the repository already had", () => {
    const old = treeEntries(["a.txt", "A.txt"]);
    expect(findCollisions(["a.txt", "A.txt", "b.txt"], old)).toEqual([]);
  });
});

describe("validate: a new name must be one Windows can hold", () => {
  const refused: [string, RegExp][] = [
    ["src/con.ts", /reserves for a device \(con\.ts\)/],
    ["AUX", /reserves for a device/],
    ["lib/NUL.tar.gz", /reserves for a device/],
    ["src/com1/index.ts", /reserves for a device \(com1\)/],
    ["src/LPT9", /reserves for a device/],
    ["CONOUT$", /reserves for a device/],
    ["src/nul. /x", /reserves for a device/],
    ["src/new.ts::$DATA", /character Windows does not allow/],
    ["a<b>.md", /character Windows does not allow/],
    ["why?.md", /character Windows does not allow/],
    ["notes.md.", /ending in a dot or space/],
    ["src/.. /evil.txt", /ending in a dot or space/],
    ["src/.../x", /ending in a dot or space/],
    ["docs/readme ", /ending in a dot or space/],
  ];
  for (const [path, reason] of refused) {
    it(`refuses ${JSON.stringify(path)}`, () => {
      expect(checkNewName(path).join("\n")).toMatch(reason);
    });
  }

  it("leaves names that only start like one, and dots inside a name", () => {
    for (const path of [
      "src/console.ts",
      "docs/auxiliary.md",
      "src/com10.ts",
      "nullable/x.ts",
      "a.b.c",
      ".env.example",
      "src/.hidden",
      "x~",
    ]) {
      expect(checkNewName(path), path).toEqual([]);
    }
  });
});
