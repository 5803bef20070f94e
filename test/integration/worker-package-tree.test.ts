// The worker leaves out the changes the client refuses for what the base's tree holds besides the
// changed file: a package.json removed beside pnpm's package.yaml, a dependency patch the base's
// package files name, a workspaces pattern over a folder with install scripts; and proposes the rest.
import { describe, expect, it } from "vitest";
import { envelope, parseResult, runWorkerOn, useBundledRepo, useWorkspaceRoot } from "./worker-helpers.js";

useWorkspaceRoot({ emptyAfterEach: true });
const ROOT = {
  name: "root",
  private: true,
  workspaces: ["packages/*"],
  resolutions: { pad: "patch:pad@npm%3A1.0.0#./custom/pad.patch" },
};
const target = useBundledRepo((repo) => {
  repo.write("src/a.js", "var a = 1;\n");
  repo.write("package.json", `${JSON.stringify(ROOT, null, 2)}\n`);
  repo.write("custom/pad.patch", "old\n");
  // pnpm's settings name a patch through an anchor, a form the check does not read.
  repo.write("pnpm-workspace.yaml", "patchedDependencies:\n  pad@1.0.0: &p fixes/pad.fix\n");
  repo.write("fixes/pad.fix", "old\n");
  repo.write(
    "fixtures/evil/package.json",
    `${JSON.stringify({ name: "evil", scripts: { postinstall: "node -e 1" } })}\n`,
  );
  repo.write("pnpm-lock.yaml", "lockfileVersion: '9.0'\n");
  repo.write("web/package.json", `${JSON.stringify({ name: "web" })}\n`);
  repo.write("web/package.yaml", "name: web\nscripts:\n  postinstall: node -e 1\n");
  return repo.commit("base");
});

describe("the worker and the package files' tree", () => {
  it("leaves out what the client would refuse for the base's tree, and proposes the rest", async () => {
    const command = [
      "sed -i 's/^var a/let a/' src/a.js",
      "echo new > custom/pad.patch",
      "printf -- '--- a/index.js\\n+++ b/index.js\\n' > fixes/pad.fix",
      "rm web/package.json",
      `sed -i 's#"packages/\\*"#"packages/*", "fixtures/*"#' package.json`,
      // pnpm's lockfile deleted with it: the base is pnpm's, and so is a package.yaml still.
      "rm pnpm-lock.yaml",
      "mkdir app && printf 'name: app\\nscripts:\\n  postinstall: node -e 1\\n' > app/package.yaml",
    ].join("; ");
    const run = await runWorkerOn(envelope(target.request(), target.bundle), {
      reviewerCommands: [{ command, format: "comments" }],
    });
    expect(run.code, run.stderr).toBe(0);
    const result = parseResult(run.stdout);
    expect(result.status, result.error).toBe("ok");
    expect(result.commits).toHaveLength(1);
    const patch = result.commits[0]?.patch ?? "";
    expect(patch).toContain("+let a = 1;");
    for (const path of [
      "custom/pad.patch",
      "fixes/pad.fix",
      "web/package.json",
      "package.json b/package.json",
      "app/package.yaml",
    ]) {
      expect(patch).not.toContain(`a/${path}`);
    }
    const notes = Object.fromEntries(result.comments.map((comment) => [comment.path, comment.message]));
    expect(notes["custom/pad.patch"]).toContain('is a dependency patch the base\'s "package.json" names');
    expect(notes["fixes/pad.fix"]).toContain(
      'is a patch file, and the base\'s "pnpm-workspace.yaml" may name it',
    );
    expect(notes["web/package.json"]).toContain('is removed beside "web/package.yaml"');
    expect(notes["package.json"]).toContain('makes "fixtures/evil" a workspace');
    expect(notes["app/package.yaml"]).toContain("is a project manifest pnpm reads");
  });
});
