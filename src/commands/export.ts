// `git review-remote export`: build, scan and store the bundle, or show what would leave (`--list`).
import { copyFile } from "node:fs/promises";
import { resolve } from "node:path";
import { type Policy, readPolicy } from "../config/policy.js";
import { ReviewRemoteError } from "../errors.js";
import { createExport, type ExportResult, formatFinding, SecretsFoundError } from "../export/bundle.js";
import { messages } from "../messages.js";
import { matchGlob } from "../paths/glob.js";
import { resolveRepo } from "../repo.js";
import { formatSize, type Output, paint } from "../report/output.js";
import { createContentScanner } from "../secrets/scanner.js";
import { escapeForDisplay } from "../validate/sanitize.js";

export interface ExportArgs {
  rev?: string;
  worktree: boolean;
  list: boolean;
  json: boolean;
  output?: string;
  pathspecs: string[];
}

export function scannerFor(policy: Policy) {
  return createContentScanner({ allow: policy.secrets?.allow ?? [], matchPath: matchGlob });
}

function printList(result: ExportResult, output: Output): void {
  const total = result.files.reduce((sum, file) => sum + file.size, 0);
  output.out(
    `Would send ${result.files.length} files (${formatSize(total)}) from ${result.snapshot.commit}:`,
  );
  // Paths are the repository's own, but a cloned repository's names may hold escape sequences.
  for (const file of result.files)
    output.out(`${formatSize(file.size).padStart(11)}  ${escapeForDisplay(file.path)}`);
  if (result.excluded.length > 0) {
    output.out(`Would keep back ${result.excluded.length} paths:`);
    const width = Math.min(48, Math.max(...result.excluded.map((e) => e.path.length)));
    for (const entry of result.excluded) {
      output.out(`  ${escapeForDisplay(entry.path).padEnd(width)}  ${escapeForDisplay(entry.reason)}`);
    }
  }
  if (result.findings.length > 0) {
    output.out(paint(output, "red", `The content scan would stop the export (${result.findings.length}):`));
    for (const finding of result.findings) output.out(`  ${formatFinding(finding)}`);
  }
}

export async function runExport(args: ExportArgs, output: Output): Promise<number> {
  const repo = await resolveRepo();
  const policy = await readPolicy(repo.top);
  const options = {
    rev: args.rev,
    worktree: args.worktree,
    pathspecs: args.pathspecs,
    policy,
    scanner: scannerFor(policy),
    listOnly: args.list,
  };
  if (args.list) {
    const result = await createExport(repo, options);
    if (args.json) {
      const { snapshot, files, excluded, findings } = result;
      output.raw(`${JSON.stringify({ snapshot, files, excluded, findings }, null, 2)}\n`);
    } else {
      printList(result, output);
    }
    return 0;
  }
  let result: ExportResult;
  try {
    result = await createExport(repo, options);
  } catch (error) {
    if (args.json && error instanceof SecretsFoundError) {
      output.raw(`${JSON.stringify({ findings: error.findings }, null, 2)}\n`);
    }
    throw error;
  }
  if (args.output) {
    const target = resolve(repo.cwd, args.output);
    await copyFile(result.path as string, target).catch((error: NodeJS.ErrnoException) => {
      throw new ReviewRemoteError(messages.outputUnwritable(target, error.code ?? String(error)), {
        cause: error,
      });
    });
  }
  if (args.json) {
    const { sha256, bytes, path, files, excluded, snapshot } = result;
    output.raw(
      `${JSON.stringify({ sha256, bytes, path, files: files.length, excluded, snapshot }, null, 2)}\n`,
    );
    return 0;
  }
  output.out(result.sha256 as string);
  output.out(result.path as string);
  if (!output.quiet) {
    output.err(
      `Exported ${result.files.length} files (${formatSize(result.bytes ?? 0)} compressed); ` +
        `${result.excluded.length} paths kept back (git review-remote export --list shows why).`,
    );
  }
  return 0;
}
