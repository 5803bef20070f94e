// Finds every occurrence of many short keywords in one pass over the bytes, so the cost of the
// content scan does not grow with the number of rules. Keywords have at least 3 bytes, so any
// occurrence covers a byte pair at an even offset, either its first pair or its second: the scan looks
// up only the pairs at even offsets (half the work of a byte-by-byte loop), checks the byte before or
// after against a per-pair set, and only then compares candidate keywords.

export interface Keyword {
  /** At least 3 characters, latin1. */
  text: string;
  /** Compare byte for byte; otherwise ASCII letters match in either case. */
  exact: boolean;
}

export interface KeywordHits {
  /** Parallel arrays, in increasing offset order. */
  ids: number[];
  offsets: number[];
}

/** ASCII upper case to lower case; every other byte to itself. */
const FOLD = Uint8Array.from({ length: 256 }, (_, byte) =>
  byte >= 0x41 && byte <= 0x5a ? byte + 0x20 : byte,
);

function caseVariants(byte: number, exact: boolean): number[] {
  const lower = FOLD[byte] as number;
  if (exact || lower < 0x61 || lower > 0x7a) return [byte];
  return [lower, lower - 0x20];
}

/** A 256-bit set per slot, 8 words each. */
function addToSet(sets: Int32Array, slot: number, byte: number): void {
  const word = slot * 8 + (byte >>> 5);
  sets[word] = (sets[word] as number) | (1 << (byte & 31));
}

export class KeywordIndex {
  private readonly bytes: Uint8Array[];
  private readonly exact: boolean[];
  /** A byte pair (as written) → slot, 0 when the pair is neither the first nor the second of a keyword. */
  private readonly slots = new Uint16Array(65536);
  /** Per slot: the bytes that may follow the pair for a keyword starting with it... */
  private after = new Int32Array(8);
  /** ...and the bytes that may precede it for a keyword whose second pair it is. */
  private before = new Int32Array(8);
  /** Per slot: the keywords starting at the pair, and those starting one byte earlier. */
  private readonly startingAt: number[][] = [[]];
  private readonly startingBefore: number[][] = [[]];

  constructor(keywords: readonly Keyword[]) {
    this.exact = keywords.map((keyword) => keyword.exact);
    this.bytes = keywords.map((keyword, id) => {
      const raw = Uint8Array.from(Buffer.from(keyword.text, "latin1"));
      if (raw.length < 3) throw new Error(`keyword too short for the index: ${JSON.stringify(keyword.text)}`);
      const [first, second, third] = [0, 1, 2].map((at) =>
        caseVariants(raw[at] as number, keyword.exact),
      ) as [number[], number[], number[]];
      for (const a of first) {
        for (const b of second) {
          const slot = this.slotFor((a << 8) | b);
          this.startingAt[slot]?.push(id);
          for (const c of third) addToSet(this.after, slot, c);
        }
      }
      for (const b of second) {
        for (const c of third) {
          const slot = this.slotFor((b << 8) | c);
          this.startingBefore[slot]?.push(id);
          for (const a of first) addToSet(this.before, slot, a);
        }
      }
      return keyword.exact ? raw : raw.map((byte) => FOLD[byte] as number);
    });
  }

  private slotFor(pair: number): number {
    let slot = this.slots[pair] as number;
    if (slot === 0) {
      slot = this.startingAt.push([]) - 1;
      this.startingBefore.push([]);
      this.slots[pair] = slot;
      const size = (slot + 1) * 8;
      const after = new Int32Array(size);
      after.set(this.after);
      this.after = after;
      const before = new Int32Array(size);
      before.set(this.before);
      this.before = before;
    }
    return slot;
  }

  /** Every occurrence of every keyword in `data`, in offset order. */
  scan(data: Uint8Array): KeywordHits {
    const hits: KeywordHits = { ids: [], offsets: [] };
    const { slots, after, before } = this;
    const pairs = data.length - 1;
    for (let i = 0; i < pairs; i += 2) {
      const slot = slots[((data[i] as number) << 8) | (data[i + 1] as number)] as number;
      if (slot === 0) continue;
      if (i > 0) {
        const previous = data[i - 1] as number;
        if (((before[(slot << 3) | (previous >>> 5)] as number) & (1 << (previous & 31))) !== 0) {
          this.verify(this.startingBefore[slot] as number[], data, i - 1, hits);
        }
      }
      if (i + 2 < data.length) {
        const next = data[i + 2] as number;
        if (((after[(slot << 3) | (next >>> 5)] as number) & (1 << (next & 31))) !== 0) {
          this.verify(this.startingAt[slot] as number[], data, i, hits);
        }
      }
    }
    return hits;
  }

  private verify(candidates: readonly number[], data: Uint8Array, offset: number, hits: KeywordHits): void {
    for (const id of candidates) {
      if (this.occursAt(id, data, offset)) {
        hits.ids.push(id);
        hits.offsets.push(offset);
      }
    }
  }

  private occursAt(id: number, data: Uint8Array, offset: number): boolean {
    const keyword = this.bytes[id] as Uint8Array;
    if (offset + keyword.length > data.length) return false;
    if (this.exact[id]) {
      for (let k = 0; k < keyword.length; k++) if (data[offset + k] !== keyword[k]) return false;
    } else {
      for (let k = 0; k < keyword.length; k++)
        if (FOLD[data[offset + k] as number] !== keyword[k]) return false;
    }
    return true;
  }
}
