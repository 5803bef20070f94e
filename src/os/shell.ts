// Shell quoting, for the command lines the tool writes for `sh -c` or prints for the user to run.

/** Single-quote for `sh -c`. */
export function shellQuote(word: string): string {
  return `'${word.replace(/'/g, "'\\''")}'`;
}

/** Words the shell reads as they are stay bare, so the command reads like one typed by hand. */
export function shellWord(word: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(word) ? word : shellQuote(word);
}

/**
 * `git`, or `git -C <dir>` when the command must run in another work tree than `here` (a bare
 * repository has none: a command it cannot run is run where it can).
 */
export function gitIn(dir: string | undefined, here: string | undefined): string {
  return dir === undefined || dir === here ? "git" : `git -C ${shellWord(dir)}`;
}
