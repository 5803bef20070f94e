// The scope stage, the proposals' side of the filter: a focused review imports only the fixes to
// files its change touched (the change git computed here at export, never the worker's word), so a
// reviewer run over the whole tree (`eslint --fix .`) does not propose edits to files nobody changed.
// File by file, not hunk by hunk: part of a fix could break it. Each path is kept or left out across
// the whole chain of commits, so the commits that remain still apply one after the other.
import { messages } from "../messages.js";
import { RenameGroups } from "../paths/rename-groups.js";
import { type PatchGateOptions, type PatchSection, readPatchSections } from "../validate/patch-gate.js";
import { readFileFixes, scopedMessage } from "./scoped-message.js";

interface Proposal {
  message: string;
  patch: string;
}

/**
 * What scoping left out: fixes (as a built-in reviewer commit counts a file's fixes, else its hunks;
 * a section without one, a pure rename, counts once) and files.
 */
interface LeftOut {
  fixes: number;
  files: number;
}

export interface ScopedProposals<P extends Proposal> {
  commits: P[];
  leftOut: LeftOut;
}

export interface ScopeRules {
  /** The paths the change touched (both sides of a rename in it). */
  changed: ReadonlySet<string>;
  /** The paths the worker was sent: any other path a proposal names is a file it created. */
  sent: ReadonlySet<string>;
  gate: PatchGateOptions;
}

/**
 * Keeps, of every commit, the file sections whose path the change touched; a commit left with none
 * is dropped. A rename counts as touching both its paths: it stays when either is in the change,
 * and then so does every other section of either path, in every commit. A file the worker created
 * (a path it was not sent, renamed only to other such paths) is kept: it is nobody's file yet, a fix
 * may need it, and a rename git could not pair is a deletion and a creation. A chain with a commit
 * the patch gate would refuse is handed back whole, for the quarantine to reject as it is.
 */
export function scopeProposals<P extends Proposal>(
  commits: readonly P[],
  rules: ScopeRules,
): ScopedProposals<P> {
  const read = commits.map((commit) => readPatchSections(commit.patch, rules.gate));
  if (!read.every((sections) => sections !== undefined)) return { commits: [...commits], leftOut: none() };
  const groups = new RenameGroups();
  for (const section of read.flat()) groups.join(section.names);
  const paths = read.flat().flatMap((section) => section.names);
  const inScope = groups.inScope(paths, rules.changed, (path) => rules.sent.has(path));
  const isKept = (section: PatchSection) => section.names.some((name) => inScope.has(name));
  const kept: P[] = [];
  let fixes = 0;
  const files = new Set<string>();
  for (const [index, sections] of read.entries()) {
    const commit = commits[index] as P;
    const keep = sections.filter(isKept);
    const fileFixes = readFileFixes(commit.message);
    for (const section of sections) {
      if (isKept(section)) continue;
      const counted = section.names.map((name) => fileFixes.get(name)?.fixes).find((n) => n !== undefined);
      fixes += counted ?? Math.max(1, section.hunks);
      for (const name of section.names) files.add(name);
    }
    if (keep.length === sections.length) kept.push(commit);
    else if (keep.length > 0) {
      // The worker's message describes the whole commit ("1383 fixes"): say what is left of it.
      const note = messages.scopedCommitNote(keep.length, sections.length);
      const paths = keep.map((section) => section.names.at(-1) as string);
      const message = scopedMessage(commit.message, paths, sections.length, note);
      kept.push({ ...commit, message, patch: keep.map((section) => section.text).join("") });
    }
  }
  return { commits: kept, leftOut: { fixes, files: files.size } };
}

function none(): LeftOut {
  return { fixes: 0, files: 0 };
}
