// Values that stand in for a credential rather than being one: documentation examples, template
// variables, masks and the classic sample passwords. Shared by every rule that matches a password, so
// that `user:password@localhost`, `${DB_PASSWORD}` or the `key_1234` in a vendored Yarn release never
// stop an export, while a random value next to the same names still does.

/** Variable references and templates of shells, Compose, Terraform, Helm, printf, ERB, Maven, .NET. */
const REFERENCE =
  /^(?:\$\w+|\$\(.*\)|%\w+%|%\(?\w*\)?[sdvq]|<.*>|&lt;.*&gt;|\[.*\]|\{.*\}|#\{.*\}|@\w+@|__\w+__|\w+\(.*\))$|\$\{|\{\{|%\{|\$\(/;

/** Masks and fillers: `****`, `xxxx`, `....`, `•••`, `0000`, `-`. */
const MASK = /^[xX*•#.?_\-0 ]+$/;

/** Words that name a credential or say "put yours here". */
const WORD =
  /^(?:(?:your|my|the|some|a|an|example|sample|dummy|default|db|admin|user|super|app|test|secret|api|access|auth|client)[-_ ]?)?(?:password|passwd|pass|pwd|passphrase|secret|token|key|apikey|changeme|change[-_]?me|change[-_]?it|example|placeholder|redacted|hidden|dummy|test|testing|foo|bar|baz|qux|guest|admin|root|default|none|null|nil|empty|todo|fixme|value|string|required|letmein|qwerty|hunter2|replace[-_]?me|insert[-_]?here)$/i;

/** `your-api-key`, `YOUR_TOKEN_HERE`, `my_secret`, `put-your-key-here`, `<insert>`. */
const INVITATION = /^(?:your|my|insert|enter|put|add|replace)[-_ ]?[a-z_ -]*$|[-_ ](?:here|goes[-_ ]here)$/i;

/** A word then a sample number: `key_1234`, `pass123`, `password1`, `secret_0000`, `abc123`. */
const SAMPLE_NUMBER =
  /^[a-z]{0,16}[-_.]?(?:\d|0?123(?:4(?:5(?:6(?:7(?:8(?:9(?:0)?)?)?)?)?)?)?|(\d)\1{2,7})$/i;

/** True when `value` is a placeholder, a reference or a sample, in any rule. */
export function isPlaceholder(value: string): boolean {
  return (
    REFERENCE.test(value) ||
    MASK.test(value) ||
    WORD.test(value) ||
    INVITATION.test(value) ||
    SAMPLE_NUMBER.test(value)
  );
}

/**
 * Hosts of documentation and of the developer's own machine (RFC 2606/6761 names, loopback, the usual
 * stand-ins); a weak value there is an example, a random one still a credential.
 */
const EXAMPLE_HOST =
  /^(?:localhost|127(?:\.\d{1,3}){3}|0\.0\.0\.0|\[?::1\]?|host|hostname|server|domain|(?:[\w-]+\.)*(?:example|test|invalid|localhost|local)|(?:[\w-]+\.)*(?:example|your-?domain|my-?domain|domain|company|acme|dotenv)\.(?:com|org|net|io))(?::\d{1,5})?$/i;

export function isExampleHost(host: string): boolean {
  return EXAMPLE_HOST.test(host);
}

/** A word, optionally with digits: what people type as a sample password (`hunter42`, `secret`). */
const WEAK = /^[a-z]{1,24}[-_.]?\d{0,8}$/i;

/**
 * A user/password pair that is no credential: a placeholder password (or placeholders joined), a
 * password equal to the user (`guest:guest`), or a weak one on an example host (`admin:s3cret` is not weak, `app:hunter42@localhost`
 * is).
 */
export function isPlaceholderPair(user: string | undefined, password: string, host?: string): boolean {
  if (isPlaceholder(password) || isJoinedPlaceholders(password) || password === user) return true;
  return host !== undefined && isExampleHost(host) && WEAK.test(password);
}

/**
 * Placeholder words joined by spaces or punctuation, the samples of a test that parses them
 * (`pass pass`, `pass#pass`, `test/secret`): every part such a word, so the whole is one too. A
 * part that is only shaped like a sample (`Ab3`, `x`) does not count: `Ab3$-x` is a password.
 */
function isJoinedPlaceholders(value: string): boolean {
  const parts = value.split(/[^A-Za-z0-9]+/).filter((part) => part !== "");
  return parts.length > 1 && parts.every((part) => WORD.test(part));
}

/** A URL component as it reads once decoded (`pass%20pass` is `pass pass`); a bad escape as written. */
function percentDecoded(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/**
 * A URL's user and password that are no credential once percent-decoded (`pass%20pass` reads
 * `pass pass`), by isPlaceholderPair's words, masks and samples, but never as a reference: a
 * template is written as it is (`${DB_PASSWORD}`), not encoded, and decoding turns a random
 * password's `%24%7B` into a `${` (its `%7B...%7D` into `{...}`) that would read as one.
 */
export function isDecodedPlaceholderPair(user: string | undefined, password: string, host?: string): boolean {
  const decoded = percentDecoded(password);
  if (REFERENCE.test(decoded)) return false;
  return isPlaceholderPair(percentDecoded(user ?? ""), decoded, host);
}

/** A value without a digit or without a letter: a word, a name or a number, not a generated key. */
export const NOT_MIXED = /^[^0-9]*$|^[^A-Za-z]*$/;

/** Rejects a value that is a placeholder or is not a mix of letters and digits. */
export function isPlaceholderOrWord(value: string): boolean {
  return NOT_MIXED.test(value) || isPlaceholder(value);
}
