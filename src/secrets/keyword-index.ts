// Finds every occurrence of many short keywords in one pass over the bytes, so the cost of the
// content scan does not grow with the number of rules: an Aho-Corasick automaton compiled to a DFA
// over case-folded byte classes. Each byte costs one table step; keywords with an upper-case letter
// are also compared byte for byte where the folded automaton reports them.

export interface Keyword {
  /** At least one character, latin1. */
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

/**
 * The Aho-Corasick automaton of the folded keywords: the trie's states breadth first (`order`, the
 * root, 0, first), each state's failure state (the longest proper suffix of its string that is a
 * state too), its edges (`firstChild` and `sibling`, a list per state, `classInto` the class on the
 * edge into each), and `ends`, the keywords that end at a state: its own first, then its failure
 * state's (arrays shared between states, never written after). Work in proportion to the keywords'
 * bytes, not to states × classes: this runs once per process, in the interpreter.
 */
function automaton(folded: readonly Uint8Array[], classes: number) {
  // At most one state per keyword byte, and the root; -1 where the trie has no edge.
  const most = 1 + folded.reduce((sum, bytes) => sum + bytes.length, 0);
  const trie = new Int32Array(most * classes).fill(-1);
  const firstChild = new Int32Array(most).fill(-1);
  const sibling = new Int32Array(most).fill(-1);
  const classInto = new Uint8Array(most);
  const own: (number[] | undefined)[] = [];
  let states = 1;
  folded.forEach((bytes, id) => {
    let node = 0;
    for (const cls of bytes) {
      let child = trie[node * classes + cls] as number;
      if (child === -1) {
        child = states++;
        trie[node * classes + cls] = child;
        classInto[child] = cls;
        sibling[child] = firstChild[node] as number;
        firstChild[node] = child;
      }
      node = child;
    }
    const ending = own[node];
    if (ending) ending.push(id);
    else own[node] = [id];
  });
  const fail = new Int32Array(states);
  const ends = new Array<number[]>(states);
  const order = new Int32Array(states);
  ends[0] = [];
  let queued = 1;
  for (let at = 0; at < queued; at++) {
    const node = order[at] as number;
    for (let child = firstChild[node] as number; child !== -1; child = sibling[child] as number) {
      const cls = classInto[child] as number;
      let link = 0;
      if (node !== 0) {
        let suffix = fail[node] as number;
        while (suffix !== 0 && trie[suffix * classes + cls] === -1) suffix = fail[suffix] as number;
        link = Math.max(trie[suffix * classes + cls] as number, 0);
      }
      fail[child] = link;
      const inherited = ends[link] as number[];
      const mine = own[child];
      ends[child] = mine ? (inherited.length > 0 ? [...mine, ...inherited] : mine) : inherited;
      order[queued++] = child;
    }
  }
  return { states, order, fail, firstChild, sibling, classInto, ends };
}

export class KeywordIndex {
  private readonly raw: Uint8Array[];
  private readonly exact: boolean[];
  /** Byte → class (0 for bytes no keyword has, letters folded). */
  private readonly classOf = new Uint8Array(256);
  private readonly classes: number;
  /** Row offset (state × classes) + class → the next state's row offset. */
  private readonly delta: Int32Array;
  /** States are numbered so that those ending a keyword come last: one compare tells them. */
  private readonly firstOutputRow: number;
  /** Per state (row offset / classes): the keywords ending there. */
  private readonly outputs: number[][];

  constructor(keywords: readonly Keyword[]) {
    this.raw = keywords.map((keyword) => {
      if (keyword.text.length === 0) throw new Error("empty keyword");
      return Uint8Array.from(Buffer.from(keyword.text, "latin1"));
    });
    this.exact = keywords.map((keyword) => keyword.exact);
    let classes = 1;
    const folded = this.raw.map((bytes) =>
      bytes.map((byte) => {
        const lower = FOLD[byte] as number;
        if (this.classOf[lower] === 0) this.classOf[lower] = classes++;
        return this.classOf[lower] as number;
      }),
    );
    for (let byte = 0; byte < 256; byte++) this.classOf[byte] = this.classOf[FOLD[byte] as number] as number;
    this.classes = classes;
    const { states, order, fail, firstChild, sibling, classInto, ends } = automaton(folded, classes);
    // Renumber: states without output first, in breadth-first order, then the output states.
    const number = new Int32Array(states);
    let numbered = 0;
    for (const node of order) if ((ends[node] as number[]).length === 0) number[node] = numbered++;
    this.firstOutputRow = numbered * classes;
    for (const node of order) if ((ends[node] as number[]).length > 0) number[node] = numbered++;
    this.outputs = new Array<number[]>(states);
    // The full transition table, a state's row at its new number × classes: its failure state's row
    // (complete already, breadth first), with its own edges over it; the root's missing edges stay 0.
    this.delta = new Int32Array(states * classes);
    for (const node of order) {
      const row = (number[node] as number) * classes;
      this.outputs[row / classes] = ends[node] as number[];
      if (node !== 0) {
        const failRow = (number[fail[node] as number] as number) * classes;
        this.delta.copyWithin(row, failRow, failRow + classes);
      }
      for (let child = firstChild[node] as number; child !== -1; child = sibling[child] as number) {
        this.delta[row + (classInto[child] as number)] = (number[child] as number) * classes;
      }
    }
  }

  /** Every occurrence of every keyword in `data`, in offset order. */
  scan(data: Uint8Array): KeywordHits {
    const hits: KeywordHits = { ids: [], offsets: [] };
    const { delta, classOf, firstOutputRow } = this;
    let row = 0;
    let sorted = true;
    for (let i = 0; i < data.length; i++) {
      row = delta[row + (classOf[data[i] as number] as number)] as number;
      if (row >= firstOutputRow) sorted = this.report(row, data, i, hits) && sorted;
    }
    return sorted ? hits : sortHits(hits);
  }

  /** Records the keywords ending at `end`; false when one starts before an earlier recorded hit. */
  private report(row: number, data: Uint8Array, end: number, hits: KeywordHits): boolean {
    let sorted = true;
    for (const id of this.outputs[row / this.classes] as number[]) {
      const keyword = this.raw[id] as Uint8Array;
      const offset = end + 1 - keyword.length;
      if (this.exact[id] && !occursAt(keyword, data, offset)) continue;
      const last = hits.offsets[hits.offsets.length - 1];
      if (last !== undefined && last > offset) sorted = false;
      hits.ids.push(id);
      hits.offsets.push(offset);
    }
    return sorted;
  }
}

function occursAt(keyword: Uint8Array, data: Uint8Array, offset: number): boolean {
  for (let k = 0; k < keyword.length; k++) if (data[offset + k] !== keyword[k]) return false;
  return true;
}

function sortHits(hits: KeywordHits): KeywordHits {
  const order = hits.offsets
    .map((_, index) => index)
    .sort((a, b) => (hits.offsets[a] as number) - (hits.offsets[b] as number));
  return {
    ids: order.map((index) => hits.ids[index] as number),
    offsets: order.map((index) => hits.offsets[index] as number),
  };
}
