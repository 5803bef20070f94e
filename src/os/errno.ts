// An I/O error in the system's words (`No such file or directory`), as git prints strerror: the
// bare code (ENOENT) says little to whoever did not write the program.
import { getSystemErrorMap } from "node:util";

export function describeIoError(error: unknown): string {
  const { errno, code } = (error ?? {}) as NodeJS.ErrnoException;
  const text = errno === undefined ? undefined : getSystemErrorMap().get(errno)?.[1];
  if (text) return text.charAt(0).toUpperCase() + text.slice(1);
  return code ?? String(error);
}
