// The external reviewers' part of a review (design §8): the tree given to the sandbox's user, the
// host's setup command (or its cache), then the reviewers in order, each one's work a commit.

import type { Request } from "../protocol/request.js";
import type { ReviewComment } from "../protocol/result.js";
import { changeTier } from "./change-tier.js";
import { describeRan, runCommandReviewers } from "./command-reviewers.js";
import type { SetupOptions } from "./host-options.js";
import type { ReviewerCommand } from "./reviewer-specs.js";
import type { StepContext } from "./reviewer-step.js";
import {
  chownTree,
  type Grants,
  type ReviewerIo,
  type ReviewerPhase,
  reviewerPhase,
} from "./run-reviewer.js";
import type { ResourceLimits } from "./sandbox.js";
import { runSetup } from "./setup.js";
import type { TreeGit } from "./tree-git.js";

export interface CommandsReviewer {
  kind: "commands";
  commands: readonly ReviewerCommand[];
  grants: Grants;
  setup?: SetupOptions | undefined;
}

export interface CommandsContext extends ReviewerPhase {
  request: Request;
  /** The tree's paths as the bundle listed them (what setup's cache key reads). */
  treePaths: Iterable<string>;
  reviewer: CommandsReviewer;
  io: ReviewerIo;
  resourceLimits: ResourceLimits;
}

export interface CommandsReviewed {
  head: string;
  comments: ReviewComment[];
  /** Comments over the request's limit the reports left out. */
  overLimit?: number;
  /** What ran, for the summary. */
  ran: string;
  error?: string;
}

export async function reviewWithCommands(ctx: CommandsContext, baseline: string): Promise<CommandsReviewed> {
  const { deadline, io, request, reviewer } = ctx;
  if (ctx.sandbox.user) await chownTree([io.tree], ctx.sandbox.user, deadline.signal);
  const limits = ctx.resourceLimits;
  const git: TreeGit = {
    sandbox: ctx.sandbox,
    tree: io.tree,
    home: io.home,
    scratch: io.scratch,
    signal: deadline.signal,
  };
  let setupAccount: string | undefined;
  if (reviewer.setup) {
    const setup = reviewer.setup;
    const outcome = await deadline.run("running the setup command", () =>
      runSetup({
        ...reviewerPhase(ctx),
        setup,
        treePaths: ctx.treePaths,
        io,
        tools: reviewer.grants.tools,
        limits,
        git,
      }),
    );
    if (!outcome.ok) {
      return { head: baseline, comments: [], ran: outcome.account, error: outcome.error };
    }
    setupAccount = outcome.account;
    git.excluded = outcome.excluded;
  }
  const stepContext: StepContext = {
    question: request.question,
    maxComments: request.limits.maxComments,
    tier: changeTier(request),
    maxPatchBytes: request.limits.maxPatchBytes,
    ...reviewerPhase(ctx),
    io,
    grants: reviewer.grants,
    limits,
    git,
    snapshot: baseline,
  };
  const outcome = await runCommandReviewers(stepContext, reviewer.commands, baseline, deadline);
  const failed = outcome.ran.filter((ran) => ran.error !== undefined);
  const summary = setupAccount ? `${setupAccount}\n${describeRan(outcome.ran)}` : describeRan(outcome.ran);
  // One reviewer failing fails the review; of several, only all of them failing does.
  const error = failed.length === outcome.ran.length ? failed[0]?.error : undefined;
  return {
    head: outcome.head,
    comments: outcome.comments,
    overLimit: outcome.overLimit,
    ran: summary,
    ...(error !== undefined ? { error } : {}),
  };
}
