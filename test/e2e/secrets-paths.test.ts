// The paths export and a refused review print, as git prints paths: `export --list`'s files, the
// paths it keeps back, the findings and the refusal's hint, quoted under core.quotePath (a tab or a
// line break always), --json keeping them as they are.
import { describe, expect, it } from "vitest";
import { fake } from "../fixtures/secrets/fake-tokens.js";
import { makeZip } from "../fixtures/secrets/zip-writer.js";
import { createTestRepo, repoTracker, runUnchanged, type TestRepo } from "../helpers/repo.js";

const repos = repoTracker();
function newRepo(): TestRepo {
  return repos.add(createTestRepo());
}

/** A tree of names git quotes: a non-ASCII letter, a tab; a key in two files of `café/`, a zip's member named `.env`. */
function quotedTree(): TestRepo {
  const repo = newRepo();
  repo.write("caf\u00e9.txt", "hi\n");
  repo.write("tab\there.txt", "tab\n");
  repo.write("caf\u00e9/.env", "A=1\n");
  repo.write("caf\u00e9/key.ts", `export const key = "${fake.awsKeyId(1)}";\n`);
  repo.write("caf\u00e9/other.ts", `export const key = "${fake.awsKeyId(2)}";\n`);
  repo.write("caf\u00e9/a.zip", makeZip([{ name: "\u00fcn/.env", data: Buffer.from("B=2\n") }]));
  repo.commit("quoted names");
  return repo;
}

describe("export's paths, as git prints them", () => {
  it.each([
    ["true", (path: string) => `"${path}"`, "caf\\303\\251", "\\303\\274n"],
    ["false", (path: string) => path, "caf\u00e9", "\u00fcn"],
  ] as const)(
    "core.quotePath=%s: the listing, the kept back, the findings and the hint",
    (quotePath, q, cafe, un) => {
      const repo = quotedTree();
      repo.git("config", "core.quotePath", quotePath);
      expect(repo.git("ls-files", "caf\u00e9.txt")).toBe(`${q(`${cafe}.txt`)}\n`);
      const list = runUnchanged(repo, ["export", "--list"], 6);
      expect(list.stdout).toMatch(new RegExp(`^ +3 B {2}${literal(q(`${cafe}.txt`))}$`, "m"));
      // A tab is quoted whatever the setting, as git quotes it.
      expect(list.stdout).toMatch(/^ +4 B {2}"tab\\there\.txt"$/m);
      expect(list.stdout).toMatch(new RegExp(`^ {2}${literal(q(`${cafe}/.env`))} +secret name: dotenv`, "m"));
      expect(list.stdout).toMatch(
        new RegExp(`^ {2}${literal(q(`${cafe}/key.ts`))}:1: aws-access-token: .*\\(AKIA…\\)`, "m"),
      );
      expect(list.stdout).toMatch(
        new RegExp(`^ {2}${literal(q(`${cafe}/a.zip!/${un}/.env`))}: secret-file-name: `, "m"),
      );
      expect(list.stderr).toContain(`hint:   3 in ${q(`${cafe}/`)} (aws-access-token 2, secret-file-name 1)`);
      // The refusal of the export and of a review print them the same way.
      for (const args of [["export"], []]) {
        const refused = runUnchanged(repo, args, 6);
        expect(refused.stderr).toMatch(
          new RegExp(`^ {2}${literal(q(`${cafe}/key.ts`))}:1: aws-access-token: `, "m"),
        );
        expect(refused.stderr).toMatch(
          new RegExp(`^ {2}${literal(q(`${cafe}/a.zip!/${un}/.env`))}: secret-file-name: `, "m"),
        );
        expect(refused.stderr).toContain(
          `hint:   3 in ${q(`${cafe}/`)} (aws-access-token 2, secret-file-name 1)`,
        );
      }
    },
  );

  it("--json keeps every path as it is, whatever core.quotePath says", () => {
    const repo = quotedTree();
    for (const quotePath of ["true", "false"]) {
      repo.git("config", "core.quotePath", quotePath);
      const listed = JSON.parse(runUnchanged(repo, ["export", "--list", "--json"], 6).stdout);
      expect(listed.files.map((file: { path: string }) => file.path)).toEqual(
        expect.arrayContaining(["caf\u00e9.txt", "tab\there.txt"]),
      );
      expect(listed.excluded).toContainEqual(expect.objectContaining({ path: "caf\u00e9/.env" }));
      expect(listed.findings).toContainEqual(
        expect.objectContaining({ path: "caf\u00e9/a.zip", member: "\u00fcn/.env" }),
      );
      const refused = JSON.parse(runUnchanged(repo, ["export", "--json"], 6).stdout);
      expect(refused.findings).toContainEqual(expect.objectContaining({ path: "caf\u00e9/key.ts", line: 1 }));
    }
  });
});

function literal(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
