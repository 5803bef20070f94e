// The tool's own identity and the attributes that switch off git's content conversions: one
// definition for the export, the import, the notes, the merge and the worker.
import { type Env, IDENTITY_VARIABLES } from "./run.js";

/** Who the tool is in commits it makes itself (never the worker: it supplies no identity). */
export const TOOL_AUTHOR: Env = {
  GIT_AUTHOR_NAME: "git-review-remote",
  GIT_AUTHOR_EMAIL: "review-remote@localhost",
};
export const TOOL_COMMITTER: Env = {
  GIT_COMMITTER_NAME: "git-review-remote",
  GIT_COMMITTER_EMAIL: "review-remote@localhost",
};

/**
 * The environment for a commit the tool makes on its own account (the review branch's imported
 * proposals, the notes): the caller's GIT_AUTHOR_* and GIT_COMMITTER_* removed, so that neither a
 * CI job's identity nor the dates a test pins reach it; then `identity` on top. What git config
 * says (user.name, user.email) still applies where `identity` leaves a part unset.
 */
export function ownIdentityEnv(env: Env, identity: Env): Env {
  const own = { ...env };
  for (const name of IDENTITY_VARIABLES) delete own[name];
  return { ...own, ...identity };
}

/** The date of the commits the tool makes with no date of their own to take (2000-01-01). */
export const SYNTHETIC_DATE = "946684800 +0000";

/** Fixed identity and date: the same tree always gives the same commit, and the same tar. */
export const SYNTHETIC_IDENTITY: Env = {
  ...TOOL_AUTHOR,
  ...TOOL_COMMITTER,
  GIT_AUTHOR_DATE: SYNTHETIC_DATE,
  GIT_COMMITTER_DATE: SYNTHETIC_DATE,
};

/**
 * For the info/attributes of a private git dir, which outranks every .gitattributes in the tree
 * (gitattributes(5)): blobs pass through unchanged in both directions, so bundles and baselines
 * hold the committed bytes exactly. export-ignore is left alone.
 */
export const NO_CONVERSIONS = "* -export-subst -filter -text -ident -working-tree-encoding -crlf\n";
