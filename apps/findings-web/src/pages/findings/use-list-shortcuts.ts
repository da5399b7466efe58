import { useEffect, useRef, type RefObject } from 'react';

export interface ListShortcuts {
  /** ↓/j (+1) and ↑/k (−1). */
  move(by: number): void;
  /** Enter. */
  open(): void;
  /** x. */
  select(): void;
}

/** Typing goes to the field, not to the list. */
function isEditable(target: Element): boolean {
  if (target instanceof HTMLElement && target.isContentEditable) return true;
  return target.closest('input, textarea, select, [role="combobox"], [role="listbox"]') !== null;
}

/**
 * The list's keys work on the whole page, without first clicking into the grid: ↑/↓ or j/k
 * move, Enter opens, x selects. They are left alone while focus is in a field or a dialog,
 * with a modifier held, and Enter and the arrows also on a focused control outside the grid
 * (a button or link keeps its own Enter; arrows keep scrolling the page there).
 */
export function useListShortcuts(grid: RefObject<HTMLElement | null>, shortcuts: ListShortcuts) {
  const latest = useRef(shortcuts);
  useEffect(() => {
    latest.current = shortcuts;
  });
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) return;
      const target = event.target instanceof Element ? event.target : document.body;
      if (isEditable(target) || target.closest('[role="dialog"], [role="menu"]')) return;
      const onList =
        target === document.body ||
        target === document.documentElement ||
        (grid.current?.contains(target) ?? false);
      const run = (action: () => void) => {
        event.preventDefault();
        action();
      };
      switch (event.key) {
        case 'j':
          run(() => latest.current.move(1));
          break;
        case 'k':
          run(() => latest.current.move(-1));
          break;
        case 'ArrowDown':
          if (onList) run(() => latest.current.move(1));
          break;
        case 'ArrowUp':
          if (onList) run(() => latest.current.move(-1));
          break;
        case 'Enter':
          if (onList) run(() => latest.current.open());
          break;
        case 'x':
          run(() => latest.current.select());
          break;
        default:
          break;
      }
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [grid]);
}
