// Which of a reviewer's comments a focused review keeps first when there are more than maxComments:
// a whole-tree linter on a large project reports thousands of findings, and the cut to the limit
// must not drop the few on the change's lines (the client would then show none) for the most
// severe of the rest of the tree, which the client hides anyway.

import { changedLinesOf } from "../protocol/changed-lines.js";
import type { CommentTier } from "../protocol/parse-result.js";
import type { Request } from "../protocol/request.js";

/** 0: on a line the change added (or about the whole change); 1: in a changed file; 2: elsewhere. */
export function changeTier(request: Request): CommentTier | undefined {
  if (!request.range) return undefined;
  const files = new Map(changedLinesOf(request.range).files.map((file) => [file.path, file]));
  return (comment) => {
    if (comment.path === undefined) return 0;
    const file = files.get(comment.path);
    if (file === undefined) return 2;
    const { line } = comment;
    if (line === undefined || file.added === null) return 1;
    const last = comment.endLine ?? line;
    return file.added.some(([first, end]) => line <= end && last >= first) ? 0 : 1;
  };
}
