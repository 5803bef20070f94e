// Every option a command takes is in its -h text and in the manual page, and neither names an
// option the command would refuse: the three are read from the same table.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { COMMANDS, type Options, reviewCommand } from "../../src/commands/table.js";
import { ExitCode } from "../../src/errors.js";
import { commandUsage, USAGE } from "../../src/usage.js";
import { PROJECT_ROOT } from "../helpers/repo.js";

/** The manual page as plain text: no font changes, `\-` as `-`. */
const MAN = readFileSync(join(PROJECT_ROOT, "man", "git-review-remote.1"), "utf8")
  .replace(/\\f[BIRP]/g, "")
  .replace(/\\-/g, "-");
const DESIGN = readFileSync(join(PROJECT_ROOT, "docs", "design.md"), "utf8");
/** docs/design.md §4, the commands' contract. */
const CONTRACT = DESIGN.slice(DESIGN.indexOf("## 4. Commands"), DESIGN.indexOf("## 5. Config"));
const SYNOPSIS = (/^\.SH SYNOPSIS\n\.nf\n([\s\S]*?)^\.fi$/m.exec(MAN)?.[1] ?? "").split("\n");

const commands: [string, Options][] = [
  ["review", reviewCommand.options],
  ...Object.entries(COMMANDS).map(([name, command]): [string, Options] => [name, command.options]),
];

/** Every `--long` and `-s` a command's table gives it, but -h, which every command takes. */
function optionsOf(options: Options): string[] {
  return Object.entries(options)
    .filter(([name]) => name !== "help")
    .flatMap(([name, spec]) => [`--${name}`, ...(spec.short ? [`-${spec.short}`] : [])]);
}

function synopsisOf(name: string): string {
  const prefix = name === "review" ? "git review-remote [" : `git review-remote ${name}`;
  const lines = SYNOPSIS.filter((line) => line.startsWith(prefix));
  expect(lines, name).toHaveLength(1);
  return lines[0] as string;
}

/** The options a text names, as whole words: `--filter-mode`, `-m`. */
function named(text: string): Set<string> {
  return new Set(text.match(/(?<![\w-])--?[a-z][a-z-]*(?![\w])/g) ?? []);
}

describe.each(commands)("%s", (name, options) => {
  it("has each of its options in its -h text and in the manual page's synopsis", () => {
    const usage = named(commandUsage(name));
    const synopsis = named(synopsisOf(name));
    for (const option of optionsOf(options))
      expect(usage.has(option), `${option} in the -h text of ${name}`).toBe(true);
    for (const [long, spec] of Object.entries(options)) {
      if (long === "help") continue;
      // The synopsis may name an option by its short form alone; the page names the long one too.
      const inSynopsis =
        synopsis.has(`--${long}`) || (spec.short !== undefined && synopsis.has(`-${spec.short}`));
      expect(inSynopsis, `--${long} in the man page's synopsis of ${name}`).toBe(true);
      expect(MAN, `--${long} in the man page`).toContain(`--${long}`);
    }
  });

  it("has each of its options in docs/design.md's commands contract", () => {
    for (const long of Object.keys(options)) {
      if (long === "help") continue;
      // The worker's limits are one family there: --max-...
      const named = long.startsWith("max-") ? "--max-..." : `--${long}`;
      expect(CONTRACT, `${named} in design §4 for ${name}`).toContain(named);
    }
  });

  it("names in its usage lines and synopsis no option it would refuse", () => {
    const known = new Set([...optionsOf(options), "-h", "--help", "-q", "--quiet"]);
    const usageLines = commandUsage(name).split("\n\n")[0] as string;
    for (const option of named(usageLines)) expect(known, `${option} in ${name}'s usage`).toContain(option);
    for (const option of named(synopsisOf(name)))
      expect(known, `${option} in ${name}'s synopsis`).toContain(option);
  });
});

describe("the -h texts", () => {
  it.each([["(commands)", USAGE], ...commands.map(([name]) => [name, commandUsage(name)])])(
    "%s fits 80 columns, as git's own -h does",
    (_, text) => {
      const wide = text.split("\n").filter((line) => line.length > 80);
      expect(wide).toEqual([]);
    },
  );
});

describe("the configuration", () => {
  it("is the same set of keys in the manual page and in docs/design.md §5", () => {
    const section = (text: string, from: string, to: string) =>
      text.slice(text.indexOf(from), text.indexOf(to));
    const keys = (text: string) =>
      new Set(text.match(/review-remote\.(?:<name>\.)?[a-zA-Z]+/g)?.filter((key) => !key.endsWith(".json")));
    const man = keys(section(MAN, ".SH CONFIGURATION", ".SH RECEIPTS").replace(/\\fI|\\fB/g, ""));
    const design = keys(section(DESIGN, "## 5. Config", "## 6. Wire protocol"));
    expect([...man].sort()).toEqual([...design].sort());
    expect(man.size).toBeGreaterThan(10);
  });
});

describe("the exit codes", () => {
  it("are each listed in the README, the manual page and docs/design.md, and none other", () => {
    const readme = readFileSync(join(PROJECT_ROOT, "README.md"), "utf8");
    const table = readme.slice(readme.indexOf("## Exit codes"), readme.indexOf("## Security model"));
    const inReadme = [...table.matchAll(/^\| (\d+) \|/gm)].map((match) => Number(match[1]));
    const status = MAN.slice(MAN.indexOf(".SH EXIT STATUS"), MAN.indexOf(".SH FILES"));
    const inMan = [...status.matchAll(/(?:^|; )(\d+) /gm)].map((match) => Number(match[1]));
    const paragraph = CONTRACT.slice(CONTRACT.indexOf("Exit codes: "));
    const inDesign = [...paragraph.matchAll(/(?:: |; )(\d+) /g)].map((match) => Number(match[1]));
    const codes = Object.values(ExitCode).sort((a, b) => a - b);
    for (const listed of [inReadme, inMan, inDesign])
      expect([...listed].sort((a, b) => a - b)).toEqual(codes);
  });
});

describe("--version", () => {
  it("is in the -h text and the manual page's synopsis, as the CLI takes it", () => {
    expect(named(USAGE)).toContain("--version");
    expect(SYNOPSIS).toContain("git review-remote --version");
  });
});
