// Many blobs through one `git cat-file --batch` (git-cat-file(1), "BATCH OUTPUT"): a merge that
// writes a thousand files starts one git, not a thousand. Blobs as stored: `--batch --filters`
// cannot be used, git 2.39 gives the unconverted size in the header of the converted content.
import { GitError } from "../errors.js";
import { type GitOptions, gitBuffer, spawnGit } from "./run.js";

export interface BlobReader {
  /** The blob's bytes. */
  read(oid: string): Promise<Buffer>;
  close(): Promise<void>;
}

interface Pending {
  oid: string;
  resolve(content: Buffer): void;
  reject(error: Error): void;
}

/**
 * Splits batch output into blobs as it arrives: a header line `<oid> blob <size>`, the content,
 * a newline. Content is collected chunk by chunk, never re-copied as it grows.
 */
function batchParser(queue: Pending[]): (chunk: Buffer) => void {
  let head = Buffer.alloc(0);
  let size: number | undefined;
  let body: Buffer[] = [];
  let bodyLength = 0;
  return (data) => {
    let chunk = data;
    while (chunk.length > 0) {
      if (size === undefined) {
        const eol = chunk.indexOf(10);
        if (eol < 0) {
          head = Buffer.concat([head, chunk]);
          return;
        }
        const header = Buffer.concat([head, chunk.subarray(0, eol)]).toString("utf8");
        head = Buffer.alloc(0);
        chunk = chunk.subarray(eol + 1);
        const pending = queue[0];
        const match = /^\S+ blob (\d+)$/.exec(header);
        if (match === null) {
          queue.shift();
          pending?.reject(new GitError(["cat-file", "--batch"], 0, `${pending.oid}: ${header}`));
          continue;
        }
        size = Number(match[1]) + 1;
      }
      const take = Math.min(size - bodyLength, chunk.length);
      body.push(chunk.subarray(0, take));
      bodyLength += take;
      chunk = chunk.subarray(take);
      if (bodyLength === size) {
        // Content that came in one chunk (every blob of a whole output) is not copied.
        const content = body.length === 1 ? (body[0] as Buffer) : Buffer.concat(body, size);
        queue.shift()?.resolve(content.subarray(0, size - 1));
        size = undefined;
        body = [];
        bodyLength = 0;
      }
    }
  };
}

export function openBlobReader(run: GitOptions): BlobReader {
  const args = ["cat-file", "--batch"];
  const cat = spawnGit(args, { ...run, interactive: true });
  const queue: Pending[] = [];
  const fail = (error: Error) => {
    for (const pending of queue.splice(0)) pending.reject(error);
  };
  cat.stdout.on("data", batchParser(queue));
  cat.exited.then(
    ({ exitCode, stderr }) => fail(new GitError(args, exitCode, stderr)),
    (error: Error) => fail(error),
  );
  return {
    read(oid) {
      return new Promise((resolve, reject) => {
        queue.push({ oid, resolve, reject });
        cat.stdin?.write(`${oid}\n`);
      });
    },
    async close() {
      cat.stdin?.end();
      await cat.exited;
    },
  };
}

/** The content of each of `oids`, in order, from one `cat-file --batch` given them all at once. */
export async function readBlobs(run: GitOptions, oids: readonly string[]): Promise<Buffer[]> {
  if (oids.length === 0) return [];
  const args = ["cat-file", "--batch"];
  const output = await gitBuffer(args, { ...run, input: oids.map((oid) => `${oid}\n`).join("") });
  const blobs: Buffer[] = [];
  let failed: Error | undefined;
  const queue: Pending[] = oids.map((oid) => ({
    oid,
    resolve: (content) => blobs.push(content),
    reject: (error) => {
      failed ??= error;
    },
  }));
  batchParser(queue)(output);
  if (failed) throw failed;
  if (queue.length > 0) throw new GitError(args, 0, `${queue[0]?.oid}: no answer`);
  return blobs;
}
