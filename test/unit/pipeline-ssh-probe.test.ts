import { describe, expect, it } from "vitest";
import { sshProbe } from "../../src/pipeline/ssh-probe.js";

describe("the ssh command a hint gives to try a worker's connection by hand", () => {
  it("keeps the worker's ssh options and host, and runs true there", () => {
    expect(sshProbe("ssh box git-review-remote worker")).toBe("ssh box true");
    expect(sshProbe("ssh -p 2222 me@box git-review-remote worker --sandbox=require")).toBe(
      "ssh -p 2222 me@box true",
    );
    expect(sshProbe("ssh -F /etc/rr/ssh_config -o BatchMode=yes box 'git-review-remote worker'")).toBe(
      "ssh -F /etc/rr/ssh_config -o BatchMode=yes box true",
    );
    expect(sshProbe("/usr/bin/ssh -p2222 -qT -i /keys/id box worker")).toBe(
      "/usr/bin/ssh -p2222 -qT -i /keys/id box true",
    );
    // A grouped flag that takes a value takes the next word: -Ti key is -T -i key.
    expect(sshProbe("ssh -Ti /keys/id box worker")).toBe("ssh -Ti /keys/id box true");
    expect(sshProbe("ssh -- box worker")).toBe("ssh -- box true");
    // Quoted whole, as a config path is written: the shell reads it as the one word it was.
    expect(sshProbe("ssh -F '/etc/rr/ssh_config' box worker")).toBe("ssh -F '/etc/rr/ssh_config' box true");
  });

  it("gives nothing for a command it cannot read word by word, or one that is not ssh", () => {
    expect(sshProbe('ssh -F "$HOME/my config" box worker')).toBeUndefined();
    expect(sshProbe("ssh -p $PORT box worker")).toBeUndefined();
    expect(sshProbe("ssh -F '/home/me/ssh config' box worker")).toBeUndefined();
    expect(sshProbe('ssh -F "$HOME/.ssh/rr" box worker')).toBeUndefined();
    expect(sshProbe("ssh -p 2222")).toBeUndefined();
    expect(sshProbe("docker run --rm -i reviewer git-review-remote worker")).toBeUndefined();
    expect(sshProbe("sshpass -p x ssh box worker")).toBeUndefined();
    expect(sshProbe("")).toBeUndefined();
  });
});
