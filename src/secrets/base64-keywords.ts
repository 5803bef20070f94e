// Credentials written in base64 (a config blob, `Buffer.from("…", "base64")`, a Basic auth header)
// hold no keyword of their own, so the keyword pass would never run a rule on them. What a keyword
// looks like once encoded depends on where it falls in the 3-byte groups: at each of the three
// alignments, the base64 characters made of the keyword's bits alone are fixed, whatever surrounds
// it. Those fixed runs are keywords too; where one is found, the base64 around it is decoded and
// the rules run on the decoded bytes.

/** Shorter fixed runs would turn up in ordinary text too often to be worth a decode. */
const MIN_FRAGMENT = 4;
/**
 * Longer ones are cut: five characters (30 bits) are rare enough in ordinary text, and each character
 * more is a state more in the keyword automaton, built at every start.
 */
const MAX_FRAGMENT = 5;

/**
 * Bits of the keyword a character must hold to lengthen a run one short of MIN_FRAGMENT: a 3-byte
 * keyword fixes four characters at one alignment but three at the other two, where the character
 * before (second alignment) or after (third) holds four of its bits. That character is spelled each
 * way the two bits of its neighbour allow, four fragments of 22 bits each, about as rare as a fixed
 * run of four (24 bits), so every alignment of every keyword of three bytes or more is found.
 */
const PARTIAL_BITS = 4;

/** The base64 of `bytes` placed after `shift` bytes of `before`, followed by the byte `after`. */
function encodeAt(bytes: Buffer, shift: number, before: number, after: number): string {
  return Buffer.concat([Buffer.alloc(shift, before), bytes, Buffer.from([after])]).toString("base64");
}

/** The base64 characters fixed by `keyword` at each alignment (standard and URL-safe spellings). */
export function base64Fragments(keyword: string): string[] {
  const bytes = Buffer.from(keyword, "latin1");
  const fragments = new Set<string>();
  const add = (fragment: string) => {
    fragments.add(fragment);
    fragments.add(fragment.replace(/\+/g, "-").replace(/\//g, "_"));
  };
  for (let shift = 0; shift < 3; shift++) {
    // The keyword's bits are [8 * shift, 8 * (shift + length)) of a stream starting at a group: the
    // characters wholly inside them do not depend on the bytes around.
    const first = Math.ceil((8 * shift) / 6);
    const last = Math.floor((8 * (shift + bytes.length)) / 6);
    if (last - first >= MIN_FRAGMENT) {
      add(encodeAt(bytes, shift, 0, 0).slice(first, Math.min(last, first + MAX_FRAGMENT)));
      continue;
    }
    if (last - first !== MIN_FRAGMENT - 1) continue;
    // The partly fixed character on the side that holds more of the keyword's bits, in each spelling
    // the neighbouring byte can give it.
    const bitsBefore = 6 * first - 8 * shift;
    const bitsAfter = 8 * (shift + bytes.length) - 6 * last;
    if (Math.max(bitsBefore, bitsAfter) < PARTIAL_BITS) continue;
    // Its other bits are the lowest of the byte before, or the highest of the byte after.
    const before = bitsBefore >= bitsAfter;
    const free = 6 - (before ? bitsBefore : bitsAfter);
    for (let value = 0; value < 1 << free; value++) {
      if (before) add(encodeAt(bytes, shift, value, 0).slice(first - 1, last));
      else add(encodeAt(bytes, shift, 0, value << (8 - free)).slice(first, last + 1));
    }
  }
  return [...fragments];
}

/** Either alphabet; `=` only as padding at the end. */
function isBase64Char(code: number): boolean {
  return (
    (code >= 0x41 && code <= 0x5a) ||
    (code >= 0x61 && code <= 0x7a) ||
    (code >= 0x30 && code <= 0x39) ||
    code === 0x2b ||
    code === 0x2f ||
    code === 0x2d ||
    code === 0x5f
  );
}

/** Base64 characters decoded on each side of a fragment: room for a whole PEM key block. */
const REACH = 4096;

/** Blanks and line ends, which a wrapped base64 block holds between its lines. */
function isBlank(code: number): boolean {
  return code === 0x0a || code === 0x0d || code === 0x20 || code === 0x09;
}

/**
 * Where the run of base64 around `offset` starts (`step` -1) or ends (1): base64 characters, and the
 * blanks between two of them that hold a line end. `base64` (76 columns), `openssl base64` (64),
 * MIME and YAML block scalars wrap a blob over lines, indented or not, and a value can straddle the
 * wrap; blanks without a line end (two words of a sentence) end the run.
 */
function runEdge(text: string, offset: number, step: 1 | -1): number {
  let at = offset;
  const charAt = (i: number) => (i >= 0 && i < text.length ? text.charCodeAt(i) : -1);
  // `at` is the edge: the next character out is at `at` going forward, at `at - 1` going back.
  const out = step === 1 ? 0 : -1;
  while (Math.abs(at - offset) < REACH) {
    if (isBase64Char(charAt(at + out))) {
      at += step;
      continue;
    }
    let j = at + out;
    let lineEnd = false;
    while (isBlank(charAt(j))) {
      if (charAt(j) === 0x0a || charAt(j) === 0x0d) lineEnd = true;
      j += step;
    }
    if (!lineEnd || !isBase64Char(charAt(j))) break;
    at = j - out;
  }
  return at;
}

/**
 * Where the base64 run around `offset` in `text` ends (at most REACH characters each side), and the
 * bytes it decodes to at each of the four places the encoding may start (the run's own start first).
 * A run wrapped over lines is one run: its line breaks and indentation are not part of the encoding.
 */
export function decodeAround(text: string, offset: number): { end: number; decoded: Buffer[] } {
  const start = runEdge(text, offset, -1);
  const end = runEdge(text, offset, 1);
  let run = text.slice(start, end);
  if (/\s/.test(run)) run = run.replace(/\s+/g, "");
  const decoded: Buffer[] = [];
  for (let skip = 0; skip < 4 && skip < run.length; skip++) {
    // Unpadded is fine: the decoder takes a last group of 2 or 3 characters as the 1 or 2 bytes it is.
    decoded.push(Buffer.from(run.slice(skip), "base64"));
  }
  return { end, decoded };
}
