import { describe, expect, it } from "vitest";
import { commandProgramDirs, reviewerEnv } from "../../src/worker/run-reviewer.js";
import { sandboxCommand } from "../../src/worker/sandbox.js";

const spec = {
  argv: ["sh", "-c", "review"],
  cwd: "/scratch/tree",
  writable: ["/scratch/tree"],
  readOnly: ["/scratch/io/request.json"],
  env: { PATH: "/usr/bin", TOKEN_FREE: "1" },
  limits: { fileSizeBytes: 1024, openFiles: 64, processes: 32 },
};

describe("sandbox command lines", () => {
  it("drops to the unprivileged user before bwrap, and bwrap drops every capability", () => {
    const command = sandboxCommand({ kind: "bwrap+setpriv", user: { uid: 999, gid: 995 } }, spec);
    const argv = [command.file, ...command.args];
    expect(argv.slice(0, argv.indexOf("--") + 1)).toEqual([
      "prlimit",
      "--fsize=1024",
      "--nofile=64",
      "--core=0",
      "--nproc=32",
      "--",
    ]);
    const setpriv = argv.indexOf("setpriv");
    const bwrap = argv.indexOf("bwrap");
    expect(setpriv).toBeGreaterThan(0);
    expect(bwrap).toBeGreaterThan(setpriv);
    expect(argv.slice(setpriv, bwrap)).toEqual(
      expect.arrayContaining(["--reuid=999", "--regid=995", "--clear-groups", "--no-new-privs"]),
    );
    const inside = argv.slice(bwrap);
    expect(inside).toEqual(
      expect.arrayContaining(["--unshare-all", "--die-with-parent", "--new-session", "--clearenv"]),
    );
    expect(inside.join(" ")).toContain("--cap-drop ALL");
    expect(inside.join(" ")).toContain("--ro-bind /usr /usr");
    expect(inside.join(" ")).toContain("--bind /scratch/tree /scratch/tree");
    expect(inside.join(" ")).toContain("--ro-bind /scratch/io/request.json /scratch/io/request.json");
    expect(inside.join(" ")).toContain("--setenv TOKEN_FREE 1");
    expect(inside.slice(-4)).toEqual(["--", "sh", "-c", "review"]);
    expect(Object.keys(command.env).sort()).toEqual(["LANG", "PATH"]);
  });

  it("without a sandbox still applies the limits and the given environment only", () => {
    const command = sandboxCommand({ kind: "none" }, spec);
    expect([command.file, ...command.args]).toEqual([
      "prlimit",
      "--fsize=1024",
      "--nofile=64",
      "--core=0",
      "--",
      "sh",
      "-c",
      "review",
    ]);
    expect(command.env).toEqual(spec.env);
  });

  it("binds the directories of the programs a reviewer command names by absolute path", () => {
    expect(commandProgramDirs(`${process.execPath} ${import.meta.filename} --flag /nonexistent/x`)).toEqual([
      process.execPath.replace(/\/[^/]+$/, ""),
      import.meta.dirname,
    ]);
    expect(commandProgramDirs("echo hi")).toEqual([]);
  });

  it("gives the reviewer only its own variables", () => {
    process.env.FAKE_TOKEN = "secret";
    try {
      const env = reviewerEnv({
        question: "Q?",
        sandbox: { kind: "bwrap" },
        io: { tree: "/t", requestFile: "/r", commentsFile: "/c", home: "/h" },
      });
      expect(env).toMatchObject({
        HOME: "/tmp",
        REVIEW_REMOTE_QUESTION: "Q?",
        REVIEW_REMOTE_REQUEST: "/r",
        REVIEW_REMOTE_COMMENTS: "/c",
      });
      expect(Object.values(env)).not.toContain("secret");
    } finally {
      delete process.env.FAKE_TOKEN;
    }
  });
});
