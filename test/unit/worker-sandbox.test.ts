import { describe, expect, it } from "vitest";
import { reviewerEnv, toolsPath } from "../../src/worker/run-reviewer.js";
import { sandboxCommand } from "../../src/worker/sandbox.js";

const spec = {
  argv: ["sh", "-c", "review"],
  cwd: "/scratch/tree",
  writable: ["/scratch/tree"],
  readOnly: ["/scratch/io/request.json"],
  env: { PATH: "/usr/bin", TOKEN_FREE: "1" },
  limits: { fileSizeBytes: 1024, openFiles: 64, processes: 32, tmpBytes: 4096 },
};

/** The limits of `spec` as prlimit takes them; the process limit only where it is the program's own. */
const RLIMITS = ["prlimit", "--fsize=1024", "--nofile=64", "--core=0"];
const REVIEW = ["sh", "-c", "review"];

describe("sandbox command lines", () => {
  it("drops to the unprivileged user before bwrap, and bwrap drops every capability", () => {
    const command = sandboxCommand({ kind: "bwrap+setpriv", user: { uid: 999, gid: 995 } }, spec);
    const argv = [command.file, ...command.args];
    expect(argv.slice(0, argv.indexOf("--") + 1)).toEqual([
      "setpriv",
      "--reuid=999",
      "--regid=995",
      "--clear-groups",
      "--no-new-privs",
      "--inh-caps=-all",
      "--bounding-set=-all",
      "--",
    ]);
    const inside = argv.slice(argv.indexOf("bwrap"));
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

  it("sets the limits inside the jail, where the process budget is this review's alone", () => {
    const command = sandboxCommand({ kind: "bwrap" }, spec);
    const argv = [command.file, ...command.args];
    const jail = argv.indexOf("--");
    expect(argv[0]).toBe("bwrap");
    expect(argv.slice(jail + 1)).toEqual([...RLIMITS, "--nproc=32", "--", ...REVIEW]);
  });

  it("leaves nothing writable but the binds: the root and /dev are read-only, /tmp and /dev/shm capped", () => {
    const argv = sandboxCommand({ kind: "bwrap" }, spec).args.join(" ");
    expect(argv).toContain("--size 4096 --tmpfs /tmp");
    expect(argv).toContain("--size 67108864 --tmpfs /dev/shm");
    // After every mount, so that nothing can be created on bwrap's own tmpfs root or /dev.
    expect(argv).toMatch(/--remount-ro \/dev --remount-ro \/ --chdir /);
    const scratch = sandboxCommand({ kind: "bwrap" }, { ...spec, scratch: "/ws/scratch" }).args.join(" ");
    expect(scratch).toContain("--bind /ws/scratch/tmp /tmp --bind /ws/scratch/shm /dev/shm");
    expect(scratch).not.toContain("--tmpfs /tmp");
  });

  it("as root of its own user namespace, runs programs as the user who started the worker", () => {
    const owner = { uid: 1000, gid: 1001 };
    const jailed = sandboxCommand({ kind: "bwrap", owner }, spec).args.join(" ");
    expect(jailed).toContain("--unshare-user --uid 1000 --gid 1001");
    const bare = sandboxCommand({ kind: "none", owner }, spec);
    expect([bare.file, ...bare.args]).toEqual([
      ...["unshare", "--map-user=1000", "--map-group=1001", "--"],
      ...[...RLIMITS, "--nproc=32", "--", ...REVIEW],
    ]);
  });

  it("without a sandbox still applies the limits and the given environment only", () => {
    const command = sandboxCommand({ kind: "none" }, spec);
    expect([command.file, ...command.args]).toEqual([...RLIMITS, "--", ...REVIEW]);
    expect(command.env).toEqual(spec.env);
  });

  it("puts each tools directory's bin and node_modules/.bin first on PATH, in order", () => {
    const path = toolsPath({ kind: "bwrap" }, ["/opt/a", "/opt/b"]).split(":");
    expect(path.slice(0, 4)).toEqual([
      "/opt/a/bin",
      "/opt/a/node_modules/.bin",
      "/opt/b/bin",
      "/opt/b/node_modules/.bin",
    ]);
    expect(path).toContain("/usr/bin");
  });

  it("shares the network only when asked, with the resolver", () => {
    const closed = sandboxCommand({ kind: "bwrap" }, spec).args;
    expect(closed).toContain("--unshare-all");
    expect(closed).not.toContain("--share-net");
    const open = sandboxCommand({ kind: "bwrap" }, { ...spec, network: true }).args;
    expect(open).toContain("--share-net");
    expect(open.join(" ")).toContain("--ro-bind-try /etc/resolv.conf /etc/resolv.conf");
  });

  it("gives the reviewer only its own variables", () => {
    process.env.FAKE_TOKEN = "secret";
    try {
      const env = reviewerEnv({
        question: "Q?",
        sandbox: { kind: "bwrap" },
        io: {
          tree: "/t",
          dir: "/io",
          requestFile: "/r",
          commentsFile: "/c",
          outputFile: "/o",
          summaryFile: "/s",
          home: "/h",
        },
        grants: { tools: ["/opt/tools"], network: false },
      });
      expect(env).toMatchObject({
        HOME: "/tmp",
        REVIEW_REMOTE_QUESTION: "Q?",
        REVIEW_REMOTE_REQUEST: "/r",
        REVIEW_REMOTE_COMMENTS: "/c",
        REVIEW_REMOTE_OUTPUT: "/o",
        REVIEW_REMOTE_SUMMARY: "/s",
      });
      expect(env.PATH?.startsWith("/opt/tools/bin:/opt/tools/node_modules/.bin:")).toBe(true);
      expect(Object.values(env)).not.toContain("secret");
    } finally {
      delete process.env.FAKE_TOKEN;
    }
  });
});
