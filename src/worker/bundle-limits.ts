// The worker's fixed bounds on a bundle (design §8): checked while it is read (verify-bundle.ts), and
// what the workspace tmpfs is first sized for (workspace-tmpfs.ts). A module of its own so that the
// worker run outside the namespaces, which sizes the tmpfs, loads nothing of the bundle's reading.

export interface BundleLimits {
  maxEntries: number;
  /** Bytes of the uncompressed tar stream. */
  maxExpandedBytes: number;
  maxRatio: number;
  ratioFloorBytes: number;
}

export const DEFAULT_BUNDLE_LIMITS: Readonly<BundleLimits> = Object.freeze({
  maxEntries: 200_000,
  maxExpandedBytes: 2 * 1024 ** 3,
  maxRatio: 200,
  ratioFloorBytes: 4 * 1024 * 1024,
});
