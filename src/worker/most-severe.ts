// The comments a reviewer's report may carry: at most the request's limit, the most severe of the
// whole report (not its first ones), and how many more there were, so the result says one number.

import { type CommentTier, mostSevere } from "../protocol/parse-result.js";
import type { ReviewComment } from "../protocol/result.js";

export class MostSevere {
  private kept: ReviewComment[] = [];
  /** Comments offered and not kept. */
  overLimit = 0;

  constructor(
    readonly max: number,
    readonly tier?: CommentTier,
  ) {}

  /**
   * Kept in offer order; cut back to `max` each time twice as many are held. A comment cut from a
   * prefix had `max` more severe (or as severe and earlier) before it, so no later one restores it.
   */
  add(comment: ReviewComment): void {
    this.kept.push(comment);
    if (this.kept.length >= 2 * Math.max(this.max, 1)) this.cut();
  }

  comments(): ReviewComment[] {
    this.cut();
    return this.kept;
  }

  private cut(): void {
    const kept = mostSevere(this.kept, this.max, this.tier);
    this.overLimit += this.kept.length - kept.length;
    this.kept = kept;
  }
}
