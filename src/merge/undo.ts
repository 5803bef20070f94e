// The undo point of a merge: `refs/review-remote/<id>/pre-merge`, recorded before anything moves.

import { ReviewRemoteError } from "../errors.js";
import type { GitRun } from "../git/commits.js";
import { updateRefs } from "../git/refs.js";
import { messages } from "../messages.js";
import type { ReviewRecord } from "../store/records.js";

export async function recordUndo(run: GitRun, record: ReviewRecord, oid: string): Promise<string> {
  const ref = `refs/review-remote/${record.id}/pre-merge`;
  const done = await updateRefs(run, [{ op: "update", ref, oid }], "review-remote: before merge");
  if (!done.ok) throw new ReviewRemoteError(messages.undoNotRecorded(ref, done.reason));
  return ref;
}
