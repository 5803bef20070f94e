// `prune --expire=<date>` and `review-remote.pruneExpire`: how old a stored bundle no review needs must
// be before prune removes it, in the words of `git gc --prune=<date>`: `now`, `never`, a relative age
// (`2.weeks.ago`, `3 days ago`) or an absolute date (`2026-11-01`, ISO 8601). Anything else is refused,
// never read as `now` (git's approxidate reads an unknown word as now).

/** Prune's default, as git gc's: bundles unused for two weeks. */
export const DEFAULT_PRUNE_EXPIRE = "2.weeks.ago";

const UNIT_MS: Record<string, number> = {
  second: 1000,
  minute: 60_000,
  hour: 3_600_000,
  day: 86_400_000,
  week: 7 * 86_400_000,
  month: 30 * 86_400_000,
  year: 365 * 86_400_000,
};

/**
 * The cutoff in ms since the epoch: what was last used at or before it goes. `never`: -Infinity
 * (nothing goes). Undefined: not a date this reads.
 */
export function parseExpire(text: string, nowMs: number): number | undefined {
  const value = text.trim().toLowerCase();
  if (value === "now" || value === "all") return nowMs;
  if (value === "never" || value === "false") return Number.NEGATIVE_INFINITY;
  const relative = /^(\d+)[. ]+(second|minute|hour|day|week|month|year)s?[. ]+ago$/.exec(value);
  if (relative?.[1] && relative[2]) return nowMs - Number(relative[1]) * (UNIT_MS[relative[2]] ?? 0);
  if (/^\d{4}-\d{2}-\d{2}([t ][\d:.]+(z|[+-]\d{2}:?\d{2})?)?$/.test(value)) {
    const ms = Date.parse(value.replace(" ", "T").toUpperCase());
    return Number.isNaN(ms) ? undefined : ms;
  }
  return undefined;
}
