// Process control: whether a process still exists, and signalling a whole process group.

/**
 * Signal a whole process group (a child spawned with `detached: true` leads its own): `sh -c 'ssh
 * ...'` and reviewers have children of their own. A group that is already gone is fine.
 */
export function killGroup(pid: number | undefined, signal: NodeJS.Signals = "SIGKILL"): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, signal);
  } catch {}
}

/** A process that exists (EPERM: it exists, as another user). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
