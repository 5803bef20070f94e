// The repository's object store as the tool borrows it: its object format and null oid, and the
// environment of a git that writes to a private object directory while reading the repo's objects.
import type { Env } from "./run.js";

/** `git rev-parse --show-object-format` (gitrepository-layout(5), extensions.objectFormat). */
export const ObjectFormat = { sha1: "sha1", sha256: "sha256" } as const;
export type ObjectFormat = (typeof ObjectFormat)[keyof typeof ObjectFormat];

/** A full object name in either format. */
export const OBJECT_ID = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;

export function parseObjectFormat(text: string): ObjectFormat {
  return text.trim() === ObjectFormat.sha256 ? ObjectFormat.sha256 : ObjectFormat.sha1;
}

/** The all-zero object name of the format: "no object" in update-index and update-ref input. */
export function nullOid(format: ObjectFormat): string {
  return "0".repeat(format === ObjectFormat.sha256 ? 64 : 40);
}

/**
 * C-quotes a directory for GIT_ALTERNATE_OBJECT_DIRECTORIES, which git splits on ":" unless the
 * entry is double-quoted (git(1), "GIT_ALTERNATE_OBJECT_DIRECTORIES"): a repository under
 * `/home/me/a:b` would otherwise borrow from `/home/me/a` and `b`.
 */
function quoteAlternate(dir: string): string {
  if (!/[:"\\\p{Cc}]/u.test(dir)) return dir;
  const escaped = dir.replace(/["\\]/g, "\\$&").replace(/\p{Cc}/gu, (c) => {
    return `\\${c.charCodeAt(0).toString(8).padStart(3, "0")}`;
  });
  return `"${escaped}"`;
}

export interface PrivateObjects {
  /** Where git writes new objects. */
  objects: string;
  /** Object directories git reads besides (the repository's). */
  alternates: readonly string[];
  /** A private index, when the git edits one. */
  index?: string;
}

/** git writes only to `store.objects` (and the private index) and reads the alternates as well. */
export function privateObjectEnv(env: Env, store: PrivateObjects): Env {
  return {
    ...env,
    GIT_OBJECT_DIRECTORY: store.objects,
    GIT_ALTERNATE_OBJECT_DIRECTORIES: store.alternates.map(quoteAlternate).join(":"),
    ...(store.index !== undefined ? { GIT_INDEX_FILE: store.index } : {}),
  };
}
