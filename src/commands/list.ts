// `git review-remote list`: the reviews in the store.
import { readSettings } from "../config/settings.js";
import { listRefs } from "../git/refs.js";
import { withOutsideCounted } from "../pipeline/focus.js";
import { resolveRepo } from "../repo.js";
import type { Output } from "../report/output.js";
import { printRecords } from "../report/records.js";
import { printRecovered } from "../report/recovery.js";
import { storePaths } from "../store/layout.js";
import { listRecords } from "../store/records.js";
import { recoverStore } from "../store/recover.js";

export async function runList(args: { json: boolean }, output: Output): Promise<void> {
  const repo = await resolveRepo();
  const store = storePaths(repo);
  printRecovered(await recoverStore(store), output, repo.top);
  const { filterMode } = await readSettings(repo);
  const stored = await listRecords(store);
  const records = await Promise.all(stored.map((record) => withOutsideCounted(store, record, filterMode)));
  // A merged, dropped or pruned review's record keeps its branch name; the list shows what exists.
  const branches = new Set(await listRefs({ cwd: repo.cwd, env: repo.env }, "refs/heads/"));
  const exists = (branch: string) => branches.has(`refs/heads/${branch}`);
  printRecords(records, args.json, output, exists, repo.top !== undefined);
}
