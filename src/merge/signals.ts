// Ctrl-C (SIGINT) and SIGTERM during a merge are held until the next consistent point (between two
// files), where the merge stops and says how to finish or roll back. A testing aid,
// REVIEW_REMOTE_TEST_MERGE_SIGNAL=<n>:<signal>, sends <signal> (KILL, INT, TERM, STOP) to this process
// right after its nth write (the journal is the first), so tests stop a merge at a chosen point.
import { setImmediate as nextTurn } from "node:timers/promises";

const HELD: readonly NodeJS.Signals[] = ["SIGINT", "SIGTERM"];

export interface SignalGuard {
  /** The signal that arrived since the guard was set, if one did. */
  readonly received: NodeJS.Signals | undefined;
  /** Count a write: the consistent points are between them. */
  wrote(): Promise<void>;
  dispose(): void;
}

function testSignal(): { at: number; signal: NodeJS.Signals } | undefined {
  const match = /^(\d+):(KILL|INT|TERM|STOP)$/.exec(process.env.REVIEW_REMOTE_TEST_MERGE_SIGNAL ?? "");
  return match ? { at: Number(match[1]), signal: `SIG${match[2]}` as NodeJS.Signals } : undefined;
}

let writes = 0;

export function holdSignals(): SignalGuard {
  let received: NodeJS.Signals | undefined;
  const onSignal = (signal: NodeJS.Signals) => {
    received ??= signal;
  };
  for (const signal of HELD) process.on(signal, onSignal);
  const test = testSignal();
  return {
    get received() {
      return received;
    },
    async wrote() {
      writes++;
      if (test?.at !== writes) return;
      process.kill(process.pid, test.signal);
      // A held signal reaches its handler on a later turn of the event loop: wait for it there,
      // so the stop happens exactly at this point.
      for (let turn = 0; turn < 1000 && HELD.includes(test.signal) && received === undefined; turn++)
        await nextTurn();
    },
    dispose() {
      for (const signal of HELD) process.off(signal, onSignal);
    },
  };
}
