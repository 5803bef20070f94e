// A count and its noun, agreeing: `1 comment`, `2 comments`, `1 fix`, `3 fixes`.

/** `count` and `word`, or its plural (`word` + s unless given) when count is not 1. */
export function plural(count: number, word: string, many = `${word}s`): string {
  return `${count} ${count === 1 ? word : many}`;
}
