import { withBudget } from '../plumbing/errors.js';
import type { PageDriver } from '../plumbing/page-driver.js';
import type { SnapshotIndex } from './snapshot.js';

/** Beyond this many elements in one document (a whole page under a transform) bounds stand for shapes. */
const MAX_MEASURED = 2_000;

// In the guard's isolated world, so page scripts cannot redefine what it reads. -1: no offset box (SVG).
const MEASURE = `function (...els) {
  return els.map((e) => [
    typeof e.offsetWidth === 'number' ? e.offsetWidth : -1,
    typeof e.offsetHeight === 'number' ? e.offsetHeight : -1,
    e.clientLeft, e.clientTop, e.clientWidth, e.clientHeight,
  ]);
}`;

let groups = 0;

/**
 * Measures, in the page, the kept elements whose checks need more than the snapshot holds (see
 * SnapshotDoc.toMeasure), right after the snapshot is read: a scroll box's scrollbars and a transformed
 * element's own size rarely change in those milliseconds. What cannot be measured in `budgetMs` (a busy
 * page, a node gone since) keeps the fallbacks: bounds for shapes, bounds less borders for client boxes.
 *
 * @param sessionOf the session and frame id that hold a snapshot document's frame ('' is the page).
 */
export async function measureKept(
  index: SnapshotIndex,
  sessionOf: (frameId: string) => { driver: PageDriver; frameId: string } | undefined,
  budgetMs: number,
): Promise<void> {
  // An index handed out is not changed after: what comes in past the budget is dropped.
  let late = false;
  const work = index.toMeasure().map(async ({ doc, nodes }) => {
    const at = sessionOf(doc.frameId);
    if (!at || nodes.length > MAX_MEASURED) return;
    const { driver } = at;
    const executionContextId = await driver.isolatedWorld(at.frameId);
    const objectGroup = `trueclick-measure-${++groups}`;
    try {
      const ids = await Promise.all(
        nodes.map((ni) =>
          driver
            .send('DOM.resolveNode', { backendNodeId: doc.backendId(ni), executionContextId, objectGroup })
            .then((r) => r.object.objectId)
            .catch(() => undefined),
        ),
      );
      const found = nodes.flatMap((ni, k) => (ids[k] ? [{ ni, objectId: ids[k] as string }] : []));
      if (found.length === 0) return;
      const r = await driver.send('Runtime.callFunctionOn', {
        executionContextId,
        functionDeclaration: MEASURE,
        arguments: found.map((f) => ({ objectId: f.objectId })),
        returnByValue: true,
      });
      const values = (r.exceptionDetails ? [] : r.result.value) as number[][];
      if (late) return;
      found.forEach((f, k) => {
        const m = values[k];
        if (m) doc.measured(f.ni, m);
      });
    } finally {
      void driver.send('Runtime.releaseObjectGroup', { objectGroup }).catch(() => {});
    }
  });
  await withBudget('measuring scroll boxes and transformed elements', budgetMs, Promise.all(work)).catch(
    () => {},
  );
  late = true;
}
