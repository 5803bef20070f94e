// How the worker speaks on stderr (the client shows it as `remote:` lines): one prefixed line each.
import type { Writable } from "node:stream";

export type Say = (line: string) => void;

export function sayTo(stream: Writable): Say {
  return (line) => stream.write(`git-review-remote worker: ${line}\n`);
}
