// "Did you mean": a first word that is neither a command nor a revision, compared with the command
// names as git compares a mistyped subcommand (help.c: Damerau-Levenshtein with git's weights, a
// prefix counting as a perfect match, only the best scores under SIMILARITY_FLOOR).
import { ReviewRemoteError, UsageError } from "../errors.js";
import { messages } from "../messages.js";

// git's levenshtein(cmd, candidate, 0, 2, 1, 3): a swap is free, a substitution costs 2, a letter
// added 1, a letter left out 3.
const SWAP = 0;
const SUBSTITUTE = 2;
const ADD = 1;
const DELETE = 3;
const SIMILARITY_FLOOR = 7;

/** git's levenshtein.c, three rows at a time. */
function distance(typed: string, candidate: string): number {
  let previous = new Array<number>(candidate.length + 1).fill(0);
  let row = Array.from({ length: candidate.length + 1 }, (_, j) => j * ADD);
  for (let i = 0; i < typed.length; i++) {
    const next = new Array<number>(candidate.length + 1).fill(0);
    next[0] = (i + 1) * DELETE;
    for (let j = 0; j < candidate.length; j++) {
      let cost = (row[j] ?? 0) + (typed[i] === candidate[j] ? 0 : SUBSTITUTE);
      const swapped = i > 0 && j > 0 && typed[i - 1] === candidate[j] && typed[i] === candidate[j - 1];
      if (swapped) cost = Math.min(cost, (previous[j - 1] ?? 0) + SWAP);
      cost = Math.min(cost, (row[j + 1] ?? 0) + DELETE, (next[j] ?? 0) + ADD);
      next[j + 1] = cost;
    }
    previous = row;
    row = next;
  }
  return row[candidate.length] ?? 0;
}

/** The commands closest to `word`, best first; empty when none is similar enough. */
export function similarCommands(word: string, names: readonly string[]): string[] {
  const scored = names.map((name) => ({
    name,
    score: name.startsWith(word) ? 0 : distance(word, name) + 1,
  }));
  const best = Math.min(...scored.map(({ score }) => score));
  if (!(best < SIMILARITY_FLOOR)) return [];
  return scored.filter(({ score }) => score === best).map(({ name }) => name);
}

/** A first word that names no command, with the ones it resembles; printed the way git prints it. */
export class UnknownCommandError extends UsageError {
  constructor(
    word: string,
    readonly suggestions: readonly string[],
  ) {
    super(messages.notACommand(word));
  }
}

/** Whether `word` names a commit or a range of commits here; false outside a repository. */
async function isRevisionHere(word: string): Promise<boolean> {
  const { resolveRepo } = await import("../repo.js");
  const { findCommit } = await import("../git/commits.js");
  const repo = await resolveRepo().catch((error: unknown) => {
    if (error instanceof ReviewRemoteError) return undefined;
    throw error;
  });
  if (!repo) return false;
  const revs = word.split("..").filter(Boolean);
  const found = await Promise.all(revs.map((rev) => findCommit({ cwd: repo.cwd, env: repo.env }, rev)));
  return revs.length > 0 && found.every((oid) => oid !== undefined);
}

/** Throws when the review's first word looks like a mistyped command and names no revision. */
export async function verifyNotMistyped(word: string, names: readonly string[]): Promise<void> {
  // Revision syntax (`HEAD~2`, `main..topic`, `v1.0`) is never a command name.
  if (!/^[A-Za-z][A-Za-z-]*$/.test(word)) return;
  const suggestions = similarCommands(word, names);
  if (suggestions.length === 0 || (await isRevisionHere(word))) return;
  throw new UnknownCommandError(word, suggestions);
}
