// What a verified statement must say: the bundle, request and snapshot that were sent, and a digest of
// the result that was received. A genuine signature over another review's statement proves nothing here.

import { messages } from "../messages.js";
import { canonicalJson } from "../protocol/jcs.js";
import { findSubject, parseStatement, type ReceiptSubjects, resultDigest, SubjectName } from "./statement.js";

/** Why the statement does not fit this review, or undefined when it does. */
export function checkStatementContent(
  statementText: string,
  sent: ReceiptSubjects,
  received: unknown,
): string | undefined {
  const parsed = parseStatement(statementText);
  if (!parsed.ok) return messages.receiptBadStatement(parsed.problems[0] ?? "statement: invalid");
  const { statement } = parsed;
  const expected: [name: string, algorithm: string, value: string, what: string][] = [
    [SubjectName.bundle, "sha256", sent.bundleSha256, "bundle"],
    [SubjectName.request, "sha256", sent.requestId, "request"],
    [SubjectName.snapshot, "gitCommit", sent.snapshotCommit, "snapshot"],
  ];
  for (const [name, algorithm, value, what] of expected) {
    if (findSubject(statement, name)?.[algorithm] !== value) {
      return messages.receiptSubjectMismatch(what, `${what} ${value}`);
    }
  }
  if (statement.predicate.resultSha256 !== representable(() => resultDigest(received))) {
    return messages.receiptResultMismatch;
  }
  const worker = (received as { worker?: unknown } | null)?.worker;
  if (canonicalJson(statement.predicate.worker) !== representable(() => canonicalJson(worker))) {
    return messages.receiptWorkerMismatch;
  }
  return undefined;
}

/** A document canonical JSON cannot represent (canonicalJson throws a TypeError) was never signed. */
function representable(render: () => string): string | undefined {
  try {
    return render();
  } catch (error) {
    if (error instanceof TypeError) return undefined;
    throw error;
  }
}
