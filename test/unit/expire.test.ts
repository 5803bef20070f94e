// `prune --expire` and `review-remote.pruneExpire`: the words git gc takes, and nothing else.
import { describe, expect, it } from "vitest";
import { parseExpire } from "../../src/config/expire.js";

const NOW = Date.parse("2026-12-03T12:00:00Z");
const DAY = 86_400_000;

describe("parseExpire", () => {
  it("reads now, never, ages and dates", () => {
    expect(parseExpire("now", NOW)).toBe(NOW);
    expect(parseExpire("never", NOW)).toBe(Number.NEGATIVE_INFINITY);
    expect(parseExpire("2.weeks.ago", NOW)).toBe(NOW - 14 * DAY);
    expect(parseExpire("1.week.ago", NOW)).toBe(NOW - 7 * DAY);
    expect(parseExpire("3 days ago", NOW)).toBe(NOW - 3 * DAY);
    expect(parseExpire("12.hours.ago", NOW)).toBe(NOW - DAY / 2);
    expect(parseExpire("2026-11-01", NOW)).toBe(Date.parse("2026-11-01T00:00:00Z"));
    expect(parseExpire("2026-11-01T10:00:00Z", NOW)).toBe(Date.parse("2026-11-01T10:00:00Z"));
  });

  it("refuses what it cannot read rather than take it for now", () => {
    for (const word of ["", "soon", "2.fortnights.ago", "weeks.ago", "2026-13-45", "-1.days.ago"])
      expect(parseExpire(word, NOW), word).toBeUndefined();
  });
});
