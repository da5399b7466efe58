import { startTransition, useEffect, useState } from 'react';

/**
 * Rows first: true once the grid's first rows have been painted (`settled`: the list answered,
 * rows or an error), or after `fallbackMs` whatever the list does. The filter and query bars
 * wait for it: their selects and popovers cost more to render for the first time than the rows
 * (~200 ms of a cold page on the 2-core bench machine), and an analyst reads rows before
 * reaching for a filter. The bars then mount in a transition, after the painted frame.
 */
export function useRowsFirst(settled: boolean, fallbackMs = 800): boolean {
  const [ready, setReady] = useState(false);
  useEffect(() => {
    if (ready) return;
    const show = () => startTransition(() => setReady(true));
    let frame = 0;
    let afterFrame: ReturnType<typeof setTimeout> | undefined;
    // The frame that paints the rows, then a task after it.
    if (settled) frame = requestAnimationFrame(() => (afterFrame = setTimeout(show, 0)));
    const fallback = setTimeout(show, fallbackMs);
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(afterFrame);
      clearTimeout(fallback);
    };
  }, [settled, ready, fallbackMs]);
  return ready;
}
