import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

// When sessions end, their frames and pages are garbage, but V8 keeps the heap it grew to under load until
// it next decides to collect, which on an idle server can be never: a server that served eight agents
// stayed 70 % above its size before them. One full collection after a burst of closes gives it back.

let collect: (() => void) | undefined;
let timer: NodeJS.Timeout | undefined;

/** A full garbage collection now (V8's gc, reached without starting node with --expose-gc). */
export function collectGarbage(): void {
  if (!collect) {
    setFlagsFromString('--expose-gc');
    collect = runInNewContext('gc') as () => void;
  }
  collect();
}

/** Collects garbage once, a moment after the last of a burst of session closes. */
export function giveBackMemorySoon(delayMs = 1000): void {
  if (timer) clearTimeout(timer);
  timer = setTimeout(() => {
    timer = undefined;
    collectGarbage();
  }, delayMs);
  timer.unref();
}
