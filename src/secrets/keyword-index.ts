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

interface Trie {
  children: Map<number, number>[];
  /** Keyword ids ending at each node. */
  ends: number[][];
}

function buildTrie(folded: readonly Uint8Array[]): Trie {
  const trie: Trie = { children: [new Map()], ends: [[]] };
  folded.forEach((bytes, id) => {
    let node = 0;
    for (const cls of bytes) {
      let child = trie.children[node]?.get(cls);
      if (child === undefined) {
        child = trie.children.push(new Map()) - 1;
        trie.ends.push([]);
        trie.children[node]?.set(cls, child);
      }
      node = child;
    }
    trie.ends[node]?.push(id);
  });
  return trie;
}

/** Breadth-first order and failure links; each node's ends grow by its failure node's. */
function linkFailures(trie: Trie): { order: number[]; fail: number[] } {
  const fail = new Array<number>(trie.children.length).fill(0);
  const order = [0];
  for (let at = 0; at < order.length; at++) {
    const node = order[at] as number;
    for (const [cls, child] of trie.children[node] as Map<number, number>) {
      let link = fail[node] as number;
      while (node !== 0 && link !== 0 && !trie.children[link]?.has(cls)) link = fail[link] as number;
      const target = node === 0 ? 0 : (trie.children[link]?.get(cls) ?? 0);
      fail[child] = target === child ? 0 : target;
      trie.ends[child]?.push(...(trie.ends[fail[child] as number] as number[]));
      order.push(child);
    }
  }
  return { order, fail };
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
    const trie = buildTrie(folded);
    const { order, fail } = linkFailures(trie);
    // Renumber: states without output first, in breadth-first order, then the output states.
    const numbered = [
      ...order.filter((node) => trie.ends[node]?.length === 0),
      ...order.filter((node) => (trie.ends[node]?.length ?? 0) > 0),
    ];
    const number = new Int32Array(numbered.length);
    numbered.forEach((node, index) => {
      number[node] = index;
    });
    this.firstOutputRow =
      (numbered.length - numbered.filter((node) => (trie.ends[node]?.length ?? 0) > 0).length) * classes;
    this.outputs = numbered.map((node) => trie.ends[node] as number[]);
    this.delta = this.compile(trie, order, fail, number);
  }

  /** The full transition table: a missing edge follows the failure link's (computed earlier, BFS). */
  private compile(
    trie: Trie,
    order: readonly number[],
    fail: readonly number[],
    number: Int32Array,
  ): Int32Array {
    const { classes } = this;
    const next = new Int32Array(order.length * classes);
    // A row is its failure node's row (complete already: failure links point up the BFS order), with
    // the node's own edges over it; the root's missing edges stay 0.
    for (const node of order) {
      const row = node * classes;
      if (node !== 0) {
        const failRow = (fail[node] as number) * classes;
        next.copyWithin(row, failRow, failRow + classes);
      }
      for (const [cls, child] of trie.children[node] as Map<number, number>) next[row + cls] = child;
    }
    const delta = new Int32Array(order.length * classes);
    for (let node = 0; node < order.length; node++) {
      for (let cls = 0; cls < classes; cls++) {
        delta[(number[node] as number) * classes + cls] =
          (number[next[node * classes + cls] as number] as number) * classes;
      }
    }
    return delta;
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
