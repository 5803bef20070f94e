// Errors the protocol layer throws; each keeps its problem lines as `details` for the CLI to print.

import { ReviewRemoteError } from "../errors.js";

/** A request we built or received breaks the wire protocol (design §6). */
export class ProtocolError extends ReviewRemoteError {}

export const EnvelopeErrorKind = {
  noRequestLine: "no-request-line",
  requestLineTooLong: "request-line-too-long",
  invalidRequest: "invalid-request",
  shortBundle: "short-bundle",
  trailingData: "trailing-data",
  bundleMismatch: "bundle-mismatch",
  bundleTooLarge: "bundle-too-large",
} as const;
export type EnvelopeErrorKind = (typeof EnvelopeErrorKind)[keyof typeof EnvelopeErrorKind];

/** The worker's stdin is not a well-formed envelope; nothing from it may be unpacked. */
export class EnvelopeError extends ProtocolError {
  constructor(
    readonly kind: EnvelopeErrorKind,
    message: string,
    options: { details?: readonly string[]; cause?: unknown } = {},
  ) {
    super(message, options);
  }
}
