// The command a hint gives to try a worker's ssh connection by hand: the worker's own `ssh` with its
// options and host, running `true` there, so `-p 2222` or `-F <config>` come along.

/** ssh(1)'s options that take a value, given as the next word or attached (`-p2222`). */
const WITH_VALUE = new Set("BbcDEeFIiJLlmOoPpQRSWw");

/**
 * A word the shell reads as one, with nothing to expand or get wrong by splitting at blanks: plain, or
 * quoted whole (`'/home/me/ssh config'` is two words here, and no probe).
 */
const PLAIN_WORD = /^(?:[A-Za-z0-9@%+=:,./_-]+|'[^']*'|"[^"$`\\]*")$/;

/**
 * `ssh <options> <host> true` for a worker command that starts with ssh, its options and host in plain
 * words (`ssh -p 2222 box git-review-remote worker`); undefined for any other command.
 */
export function sshProbe(command: string): string | undefined {
  const words = command.trim().split(/\s+/);
  const [program] = words;
  if (program === undefined || !/^(?:\/[^\s]*\/)?ssh$/.test(program)) return undefined;
  for (let index = 1; index < words.length; index++) {
    const word = words[index] as string;
    if (!PLAIN_WORD.test(word)) return undefined;
    if (word === "--") {
      const host = words[index + 1];
      return host !== undefined && PLAIN_WORD.test(host)
        ? [...words.slice(0, index + 2), "true"].join(" ")
        : undefined;
    }
    if (!word.startsWith("-")) return [...words.slice(0, index + 1), "true"].join(" ");
    // Flags may be grouped (`-qT`); the first that takes a value takes the rest of the word, or the next.
    for (let at = 1; at < word.length; at++) {
      if (!WITH_VALUE.has(word[at] as string)) continue;
      if (at === word.length - 1) {
        index++;
        if (!PLAIN_WORD.test(words[index] ?? "")) return undefined;
      }
      break;
    }
  }
  return undefined;
}
