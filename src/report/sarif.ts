// SARIF 2.1.0 of a review's comments, in the shape GitHub code scanning accepts
// (docs.github.com: "SARIF support for code scanning"). Every comment is there: those outside the
// change carry an external suppression (result.suppressions), which code scanning shows as closed.
import type { FilteredComments } from "../pipeline/filter.js";
import { readVersion } from "../version.js";

const LEVELS = { error: "error", warning: "warning", info: "note" } as const;

function suppressed(mode: string) {
  return {
    suppressions: [{ kind: "external", justification: `outside the change (--filter-mode=${mode})` }],
  };
}

export function toSarif(filtered: FilteredComments, workerName: string): object {
  const comments = [...filtered.shown, ...filtered.hidden];
  const outside = new Set(filtered.hidden);
  const rules = [...new Set(comments.map((comment) => comment.rule ?? "review-remote/comment"))].sort();
  return {
    $schema: "https://json.schemastore.org/sarif-2.1.0.json",
    version: "2.1.0",
    runs: [
      {
        tool: {
          driver: {
            name: "git-review-remote",
            semanticVersion: readVersion(),
            informationUri: "https://www.npmjs.com/package/git-review-remote",
            rules: rules.map((id) => ({ id, shortDescription: { text: id } })),
          },
        },
        automationDetails: { id: `git-review-remote/${workerName}/` },
        results: comments.map((comment) => ({
          ...(outside.has(comment) ? suppressed(filtered.mode) : {}),
          ruleId: comment.rule ?? "review-remote/comment",
          level: LEVELS[comment.severity],
          message: { text: comment.message },
          ...(comment.path
            ? {
                locations: [
                  {
                    physicalLocation: {
                      artifactLocation: { uri: comment.path, uriBaseId: "%SRCROOT%" },
                      ...(comment.line
                        ? {
                            region: {
                              startLine: comment.line,
                              ...(comment.endLine ? { endLine: comment.endLine } : {}),
                            },
                          }
                        : {}),
                    },
                  },
                ],
              }
            : {}),
        })),
      },
    ],
  };
}
