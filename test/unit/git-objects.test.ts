import { describe, expect, it } from "vitest";
import { nullOid, ObjectFormat, parseObjectFormat, privateObjectEnv } from "../../src/git/objects.js";

describe("the private object store environment", () => {
  it("quotes an alternate that git would split on ':' or unquote", () => {
    const env = privateObjectEnv(
      { GIT_DIR: "/r/.git" },
      {
        objects: "/tmp/q/objects",
        alternates: ["/home/me/co:lon/.git/objects", '/a"b\\c', "/plain/objects"],
        index: "/tmp/q/index",
      },
    );
    expect(env).toEqual({
      GIT_DIR: "/r/.git",
      GIT_OBJECT_DIRECTORY: "/tmp/q/objects",
      GIT_ALTERNATE_OBJECT_DIRECTORIES: '"/home/me/co:lon/.git/objects":"/a\\"b\\\\c":/plain/objects',
      GIT_INDEX_FILE: "/tmp/q/index",
    });
  });

  it("writes a control character as an octal escape", () => {
    const env = privateObjectEnv({}, { objects: "/o", alternates: ["/a\nb"] });
    expect(env.GIT_ALTERNATE_OBJECT_DIRECTORIES).toBe('"/a\\012b"');
    expect(env).not.toHaveProperty("GIT_INDEX_FILE");
  });
});

describe("the object format", () => {
  it("reads rev-parse --show-object-format and spells the null oid of each format", () => {
    expect(parseObjectFormat("sha256\n")).toBe(ObjectFormat.sha256);
    expect(parseObjectFormat("sha1")).toBe(ObjectFormat.sha1);
    expect(nullOid(ObjectFormat.sha1)).toBe("0".repeat(40));
    expect(nullOid(ObjectFormat.sha256)).toBe("0".repeat(64));
  });
});
