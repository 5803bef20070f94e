// Shell quoting, for the command lines the tool writes for `sh -c` or prints for the user to run.

/** Single-quote for `sh -c`. */
export function shellQuote(word: string): string {
  return `'${word.replace(/'/g, "'\\''")}'`;
}
