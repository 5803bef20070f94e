import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { UsageError } from "../../src/errors.js";
import { hostOptionsFrom } from "../../src/worker/host-options.js";
import { commandLabel } from "../../src/worker/reviewer-label.js";
import { reviewerCommandsFrom } from "../../src/worker/reviewer-specs.js";

const option = (name: string, value?: string) => ({ name, value });

describe("reviewer commands from the command line", () => {
  it("gives each command the format that follows it, comments by default, in order", () => {
    expect(
      reviewerCommandsFrom([
        option("reviewer-command", "eslint -f rdjson ."),
        option("reviewer-format", "rdjson"),
        option("tools", "/opt/t"),
        option("reviewer-command", "my-agent"),
        option("reviewer-command", "shellcheck -f diff x.sh"),
        option("reviewer-format", "diff"),
      ]),
    ).toEqual([
      { command: "eslint -f rdjson .", format: "rdjson" },
      { command: "my-agent", format: "comments" },
      { command: "shellcheck -f diff x.sh", format: "diff" },
    ]);
  });

  it("gives a command `--reviewer-fixes none` when it follows it, and refuses it misplaced or unknown", () => {
    expect(
      reviewerCommandsFrom([
        option("reviewer-command", "biome lint --write --reporter=rdjson src"),
        option("reviewer-fixes", "none"),
        option("reviewer-format", "rdjson"),
        option("reviewer-command", "eslint -f rdjson ."),
        option("reviewer-format", "rdjson"),
        option("reviewer-fixes", "all"),
      ]),
    ).toEqual([
      { command: "biome lint --write --reporter=rdjson src", format: "rdjson", fixes: "none" },
      { command: "eslint -f rdjson .", format: "rdjson" },
    ]);
    const refused = (options: { name: string; value?: string }[]) => () =>
      reviewerCommandsFrom(options.map((o) => option(o.name, o.value)));
    expect(refused([{ name: "reviewer-fixes", value: "none" }])).toThrow(
      /must follow the --reviewer-command/,
    );
    expect(
      refused([
        { name: "reviewer-command", value: "x" },
        { name: "reviewer-fixes", value: "none" },
        { name: "reviewer-fixes", value: "all" },
      ]),
    ).toThrow(/--reviewer-fixes given twice/);
    expect(
      refused([
        { name: "reviewer-command", value: "x" },
        { name: "reviewer-fixes", value: "safe" },
      ]),
    ).toThrow(/--reviewer-fixes must be one of all, none, not 'safe'/);
  });

  it("refuses a format before any command, twice for one command, unknown, or an empty command", () => {
    const refused = (options: { name: string; value?: string }[]) => () =>
      reviewerCommandsFrom(options.map((o) => option(o.name, o.value)));
    expect(refused([{ name: "reviewer-format", value: "sarif" }])).toThrow(
      /must follow the --reviewer-command/,
    );
    expect(
      refused([
        { name: "reviewer-command", value: "x" },
        { name: "reviewer-format", value: "sarif" },
        { name: "reviewer-format", value: "diff" },
      ]),
    ).toThrow(/given twice/);
    expect(
      refused([
        { name: "reviewer-command", value: "x" },
        { name: "reviewer-format", value: "json" },
      ]),
    ).toThrow(/must be one of comments, sarif, rdjson, rdjsonl, diff, not 'json'/);
    expect(refused([{ name: "reviewer-command", value: " " }])).toThrow(UsageError);
  });
});

describe("a reviewer's name in its commit and the summary", () => {
  it("is the program and its fixing flags", () => {
    expect(commandLabel("npx eslint --fix -f rdjson src")).toBe("eslint --fix");
    expect(commandLabel("prettier --write .")).toBe("prettier --write");
    expect(commandLabel("NODE_ENV=ci /opt/tools/bin/biome lint --reporter=rdjson --write=true src")).toBe(
      "biome --write",
    );
    expect(commandLabel("shellcheck -f diff scripts/*.sh")).toBe("shellcheck");
    // The README's recipes that take the changed files: named after the tool, not grep or xargs.
    expect(
      commandLabel('grep -z "\\.sh$" "$REVIEW_REMOTE_CHANGED" | xargs -0 -r shellcheck -f diff --'),
    ).toBe("shellcheck");
    expect(commandLabel('xargs -0 -r prettier --write --ignore-unknown -- < "$REVIEW_REMOTE_CHANGED"')).toBe(
      "prettier --write",
    );
    expect(commandLabel("eslint . || true")).toBe("eslint");
  });
});

describe("what the worker host decides", () => {
  const flags = { ordered: [], tools: [], network: false, setupNetwork: false };

  it("refuses setup options without a setup command, and tools that are not directories", () => {
    expect(() => hostOptionsFrom({ ...flags, setupNetwork: true })).toThrow(
      "--setup-network needs --setup-command",
    );
    expect(() => hostOptionsFrom({ ...flags, cacheDir: "/tmp" })).toThrow(
      "--cache-dir needs --setup-command",
    );
    expect(() => hostOptionsFrom({ ...flags, setupCommand: " " })).toThrow("--setup-command is empty");
    expect(() => hostOptionsFrom({ ...flags, tools: ["/nonexistent/tools"] })).toThrow(
      "--tools: /nonexistent/tools is not a directory",
    );
  });

  it("takes tools as the directories they really are, and creates the cache directory", () => {
    const root = mkdtempSync(join(tmpdir(), "rr-host-"));
    try {
      mkdirSync(join(root, "real"));
      symlinkSync(join(root, "real"), join(root, "link"));
      const host = hostOptionsFrom({
        ...flags,
        tools: [join(root, "link")],
        setupCommand: "npm ci --offline",
        cacheDir: join(root, "cache"),
      });
      expect(host.tools).toEqual([realpathSync(join(root, "real"))]);
      expect(host.setup).toEqual({
        command: "npm ci --offline",
        network: false,
        cacheDir: realpathSync(join(root, "cache")),
      });
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
