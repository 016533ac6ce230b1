/**
 * Waits in the page for input that is on its way. A look or a disarm sent right behind a mouse move or a
 * release runs once the page has handled that input, instead of after CDP's acknowledgement came back to
 * trueclick: one round trip less per click. Runs inside the guard (guard-script.ts embeds its source): no
 * imports but types, no outer variables.
 */
export function inputWaits(): {
  /** Called by the guard's listeners after each trusted event they saw. */
  seen: () => void;
  /**
   * True once `ready()` holds and the task that made it hold is over (the event's handlers, their microtasks
   * and its default action have run); false when it did not hold within `ms`, and the caller takes the slow way.
   */
  until: (ready: () => boolean, ms: number) => Promise<boolean>;
} {
  type Waiter = { ready: () => boolean; done: () => void };
  const waiters = new Set<Waiter>();
  return {
    seen: () => {
      for (const w of waiters) {
        if (!w.ready()) continue;
        waiters.delete(w);
        w.done();
      }
    },
    until: (ready, ms) =>
      new Promise<boolean>((resolve) => {
        // After input Blink renders a frame before it runs the next task: whichever comes first.
        const later = () => {
          requestAnimationFrame(() => resolve(true));
          setTimeout(() => resolve(true), 0);
        };
        // Already handled when this runs: its task is over.
        if (ready()) return resolve(true);
        const w = { ready, done: later };
        waiters.add(w);
        setTimeout(() => {
          if (waiters.delete(w)) resolve(false);
        }, ms);
      }),
  };
}
