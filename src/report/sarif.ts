// SARIF 2.1.0 of a review's comments, in the shape GitHub code scanning accepts
// (docs.github.com: "SARIF support for code scanning").
import type { ReviewComment } from "../protocol/result.js";
import { readVersion } from "../version.js";

const LEVELS = { error: "error", warning: "warning", info: "note" } as const;

export function toSarif(comments: readonly ReviewComment[], workerName: string): object {
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
