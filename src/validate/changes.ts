// Validation layer 4 (design §9): judge what git actually changed between two trees (its raw diff),
// not what the patch text claims: sane paths, only files the worker was sent, plain 100644 files, no
// mode changes, no symlinks or gitlinks, nothing forbidden.

import type { TreeChange } from "../git/raw-diff.js";
import { Mode } from "../git/trees.js";
import { forbiddenPathReason, type SecretNameCheck } from "../paths/forbidden.js";
import { checkNewName, checkPath } from "../paths/result.js";
import { isNodeGypPath } from "./npm-scripts.js";
import { quoteForDisplay } from "./sanitize.js";

export interface ChangeRules {
  /** Paths the worker was sent, plus those the proposals before this one created. */
  known: ReadonlySet<string>;
  forbiddenPaths: readonly string[];
  isSecretName: SecretNameCheck;
}

function addedModeProblem(mode: string): string | undefined {
  if (mode === Mode.regular) return undefined;
  if (mode === Mode.symlink) return "is a new symbolic link";
  if (mode === Mode.gitlink) return "is a new submodule (gitlink)";
  if (mode === Mode.executable) return "is a new executable file (new files must be 100644)";
  return `is a new entry with mode ${mode}`;
}

function keptModeProblems(change: TreeChange, verb: string): string[] {
  const problems: string[] = [];
  if (change.oldMode !== change.newMode) {
    problems.push(`was ${verb} with a mode change from ${change.oldMode} to ${change.newMode}`);
  }
  const modes = [change.oldMode, change.newMode];
  if (modes.includes(Mode.symlink)) problems.push(`is a symbolic link and was ${verb}`);
  if (modes.includes(Mode.gitlink)) problems.push(`is a submodule (gitlink) and was ${verb}`);
  return problems;
}

interface PathUse {
  /** "modified", "deleted", "renamed": the path must be one the worker was sent. */
  touched?: string;
  /** The path has content after the change (so a binding.gyp there would be run). */
  written: boolean;
}

function pathProblems(path: string, rules: ChangeRules, use: PathUse): string[] {
  const shown = quoteForDisplay(path);
  const problems = checkPath(path);
  if (use.touched === undefined && use.written) problems.push(...checkNewName(path));
  if (use.touched !== undefined && !rules.known.has(path)) {
    problems.push(`path ${shown} was ${use.touched}, but it was never sent to the worker`);
  }
  const forbidden = forbiddenPathReason(path, rules.forbiddenPaths, rules.isSecretName);
  if (forbidden !== undefined) problems.push(`path ${shown} ${forbidden}`);
  if (use.written && isNodeGypPath(path)) {
    problems.push(`path ${shown} is a binding.gyp (npm runs node-gyp from it on install)`);
  }
  return problems;
}

/** Problems with one change git made; empty when it is allowed. */
export function checkChange(change: TreeChange, rules: ChangeRules): string[] {
  const shown = quoteForDisplay(change.path);
  const modeLine = (problem: string) => `path ${shown} ${problem}`;
  switch (change.status) {
    case "A": {
      const mode = addedModeProblem(change.newMode);
      return [...pathProblems(change.path, rules, { written: true }), ...(mode ? [modeLine(mode)] : [])];
    }
    case "M":
      return [
        ...pathProblems(change.path, rules, { touched: "modified", written: true }),
        ...keptModeProblems(change, "modified").map(modeLine),
      ];
    case "D":
      return pathProblems(change.path, rules, { touched: "deleted", written: false });
    case "R":
      return [
        ...pathProblems(change.fromPath ?? "", rules, { touched: "renamed", written: false }),
        ...pathProblems(change.path, rules, { written: true }),
        ...keptModeProblems(change, "renamed").map(modeLine),
      ];
    case "T":
      return [
        ...pathProblems(change.path, rules, { touched: "modified", written: true }),
        modeLine(`changed type (mode ${change.oldMode} to ${change.newMode})`),
      ];
    default:
      return [modeLine(`has an unexpected change (status ${change.status || "?"})`)];
  }
}
