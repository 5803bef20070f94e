#!/usr/bin/env -S node --max-semi-space-size=4
// A smaller young generation keeps the export's peak memory flat: the bytes streamed through it are
// short-lived, and V8 would otherwise let up to 3x16 MB of them pile up before collecting.
import { main } from "../dist/cli.js";

process.exitCode = await main(process.argv.slice(2));
