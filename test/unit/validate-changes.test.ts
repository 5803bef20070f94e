// validate: layer 4 judgement of the changes git actually made (raw diff records).
import { describe, expect, it } from "vitest";
import { parseRawDiff, type TreeChange } from "../../src/git/raw-diff.js";
import { DEFAULT_FORBIDDEN_PATHS } from "../../src/paths/forbidden.js";
import { type ChangeRules, checkChange } from "../../src/validate/changes.js";

const Z = "0".repeat(40);
const A = "a".repeat(40);
const B = "b".repeat(40);

const rules: ChangeRules = {
  known: new Set(["src/app.ts", "src/old.ts", "scripts/build.sh", "docs/latest", ".github/workflows/ci.yml"]),
  forbiddenPaths: DEFAULT_FORBIDDEN_PATHS,
  isSecretName: (path) => (path.endsWith(".env") ? "dotenv" : undefined),
};

const change = (
  status: string,
  path: string,
  oldMode: string,
  newMode: string,
  fromPath?: string,
): TreeChange => ({
  status,
  path,
  oldMode,
  newMode,
  oldOid: oldMode === "000000" ? Z : A,
  newOid: newMode === "000000" ? Z : B,
  ...(fromPath === undefined ? {} : { fromPath }),
});

describe("validate: parseRawDiff", () => {
  it("reads plain and rename records from diff-tree -z output", () => {
    const records = [
      `:100644 100644 ${A} ${B} M`,
      "src/my file.ts",
      `:100644 100644 ${A} ${B} R066`,
      "src/old.ts",
      "src/new.ts",
      `:000000 100644 ${Z} ${B} A`,
      "a\tb",
    ];
    expect(parseRawDiff(records)).toEqual([
      { status: "M", oldMode: "100644", newMode: "100644", oldOid: A, newOid: B, path: "src/my file.ts" },
      {
        status: "R",
        oldMode: "100644",
        newMode: "100644",
        oldOid: A,
        newOid: B,
        fromPath: "src/old.ts",
        path: "src/new.ts",
      },
      { status: "A", oldMode: "000000", newMode: "100644", oldOid: Z, newOid: B, path: "a\tb" },
    ]);
  });
});

describe("validate: checkChange", () => {
  it("allows a new regular file, an edit, a delete and a rename of files the worker was sent", () => {
    expect(checkChange(change("A", "src/new.ts", "000000", "100644"), rules)).toEqual([]);
    expect(checkChange(change("M", "src/app.ts", "100644", "100644"), rules)).toEqual([]);
    expect(checkChange(change("D", "src/app.ts", "100644", "000000"), rules)).toEqual([]);
    expect(checkChange(change("R", "src/new.ts", "100644", "100644", "src/old.ts"), rules)).toEqual([]);
    expect(checkChange(change("M", "scripts/build.sh", "100755", "100755"), rules)).toEqual([]);
    expect(checkChange(change("D", "docs/latest", "120000", "000000"), rules)).toEqual([]);
  });

  it("refuses touching what the worker was never sent", () => {
    expect(checkChange(change("M", "src/secret.ts", "100644", "100644"), rules).join()).toMatch(
      /was modified, but/,
    );
    expect(checkChange(change("D", "src/secret.ts", "100644", "000000"), rules).join()).toMatch(
      /was deleted, but/,
    );
    expect(checkChange(change("R", "x.ts", "100644", "100644", "src/secret.ts"), rules).join()).toMatch(
      /"src\/secret.ts" was renamed, but/,
    );
  });

  it("refuses new symlinks, gitlinks, executables and odd modes", () => {
    expect(checkChange(change("A", "link", "000000", "120000"), rules).join()).toMatch(/new symbolic link/);
    expect(checkChange(change("A", "sub", "000000", "160000"), rules).join()).toMatch(/new submodule/);
    expect(checkChange(change("A", "x.sh", "000000", "100755"), rules).join()).toMatch(/new executable/);
    expect(checkChange(change("A", "x", "000000", "100664"), rules).join()).toMatch(/mode 100664/);
  });

  it("refuses any mode change, symlink retarget or move, and type change", () => {
    expect(checkChange(change("M", "src/app.ts", "100644", "100755"), rules).join()).toMatch(
      /mode change from 100644 to 100755/,
    );
    expect(checkChange(change("M", "docs/latest", "120000", "120000"), rules).join()).toMatch(
      /symbolic link/,
    );
    expect(checkChange(change("R", "latest", "120000", "120000", "docs/latest"), rules).join()).toMatch(
      /symbolic link and was renamed/,
    );
    expect(checkChange(change("T", "src/app.ts", "100644", "120000"), rules).join()).toMatch(/changed type/);
    expect(checkChange(change("C", "b.ts", "100644", "100644", "src/app.ts"), rules).join()).toMatch(
      /unexpected/,
    );
  });

  it("refuses insane and forbidden paths on both sides of a rename", () => {
    expect(checkChange(change("A", "-rf", "000000", "100644"), rules).join()).toMatch(/starting with "-"/);
    expect(checkChange(change("A", "src/\u202ex", "000000", "100644"), rules).join()).toMatch(/bidi/);
    expect(checkChange(change("A", ".GitHub/workflows/x.yml", "000000", "100644"), rules).join()).toMatch(
      /forbidden/,
    );
    expect(checkChange(change("D", ".github/workflows/ci.yml", "100644", "000000"), rules).join()).toMatch(
      /forbidden/,
    );
    expect(
      checkChange(change("R", "ci.yml", "100644", "100644", ".github/workflows/ci.yml"), rules).join(),
    ).toMatch(/forbidden/);
    expect(checkChange(change("A", "config/prod.env", "000000", "100644"), rules).join()).toMatch(
      /secret name rule/,
    );
    expect(checkChange(change("A", "binding.gyp", "000000", "100644"), rules).join()).toMatch(/node-gyp/);
  });
});
