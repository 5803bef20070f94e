#!/usr/bin/env -S node --max-semi-space-size=4
// A smaller young generation keeps the export's peak memory flat: the bytes streamed through it are
// short-lived, and V8 would otherwise let up to 3x16 MB of them pile up before collecting.
// The worker run inside its namespaces loads one file built for it, with its code cache
// (scripts/build.mjs, worker-cli.mjs); every other command, the entry and the chunks it needs.
const { main } =
  process.env.REVIEW_REMOTE_WORKER_CONFINED === undefined
    ? await import("../dist/cli.js")
    : (await import("./worker-cli.mjs")).loadWorker(new URL("../dist/worker-cli.cjs", import.meta.url));

process.exitCode = await main(process.argv.slice(2));
