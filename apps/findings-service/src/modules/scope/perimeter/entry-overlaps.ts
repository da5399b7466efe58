import type { EntryMode } from './perimeter';
import type { ParsedEntry } from './scope-entry-value';

/**
 * The overlap rule of a perimeter (docs/findings-service/scope.md#overlaps): two entries of
 * the same mode may not cover a common address or name (`10.0.0.0/24` under `10.0.0.0/8`,
 * two intersecting ranges, `a.example.com` under `*.example.com`, `*.a.example.com` under
 * `*.example.com`); one value may not be both an include and an exclude. An exclude may (and
 * usually does) overlap includes. So the entries of one mode stay disjoint, and each new
 * entry is checked by a binary search (addresses) or a walk over its parent names.
 */
export interface IndexedEntry {
  /** The stored entry's id, or a reference to an entry of the same request (`entries.3`). */
  ref: string;
  mode: EntryMode;
  entry: ParsedEntry;
}

export interface Conflict {
  kind: 'duplicate' | 'overlap';
  other: IndexedEntry;
}

interface Span<T extends number | bigint> {
  start: T;
  end: T;
  owner: IndexedEntry;
}

/** Disjoint intervals of one mode and family, sorted by start. */
class SpanList<T extends number | bigint> {
  private spans: Span<T>[] = [];

  /** Adds many without checking, sorting once. */
  load(spans: Span<T>[]): void {
    this.spans.push(...spans);
    this.spans.sort((a, b) => (a.start < b.start ? -1 : a.start > b.start ? 1 : 0));
  }

  /** Index of the last span starting at or before `x`, or -1. */
  private floor(x: T): number {
    let lo = 0;
    let hi = this.spans.length - 1;
    let found = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      if (this.spans[mid].start <= x) {
        found = mid;
        lo = mid + 1;
      } else {
        hi = mid - 1;
      }
    }
    return found;
  }

  /** The span meeting [start, end], if any (spans are disjoint, so one check suffices). */
  meeting(start: T, end: T): IndexedEntry | undefined {
    const i = this.floor(end);
    return i >= 0 && this.spans[i].end >= start ? this.spans[i].owner : undefined;
  }

  insert(span: Span<T>): void {
    this.spans.splice(this.floor(span.start) + 1, 0, span);
  }
}

function* parents(name: string): Generator<string> {
  for (let dot = name.indexOf('.'); dot >= 0; dot = name.indexOf('.', dot + 1)) {
    yield name.slice(dot + 1);
  }
}

class ModeOverlaps {
  private readonly v4 = new SpanList<number>();
  private readonly v6 = new SpanList<bigint>();
  private readonly exact = new Map<string, IndexedEntry>();
  private readonly wildcard = new Map<string, IndexedEntry>();
  /** A name -> an entry strictly below it (an exact name or a wildcard base under it). */
  private readonly below = new Map<string, IndexedEntry>();

  load(entries: IndexedEntry[]): void {
    const v4: Span<number>[] = [];
    const v6: Span<bigint>[] = [];
    for (const owner of entries) {
      const e = owner.entry;
      if (e.kind === 'domain' || e.kind === 'wildcard') this.addName(owner);
      else if (e.family === 4) v4.push({ start: e.start, end: e.end, owner });
      else v6.push({ start: e.start, end: e.end, owner });
    }
    this.v4.load(v4);
    this.v6.load(v6);
  }

  add(owner: IndexedEntry): void {
    const e = owner.entry;
    if (e.kind === 'domain' || e.kind === 'wildcard') this.addName(owner);
    else if (e.family === 4) this.v4.insert({ start: e.start, end: e.end, owner });
    else this.v6.insert({ start: e.start, end: e.end, owner });
  }

  private addName(owner: IndexedEntry): void {
    const e = owner.entry;
    const name = e.kind === 'domain' ? e.name : e.kind === 'wildcard' ? e.base : '';
    (e.kind === 'domain' ? this.exact : this.wildcard).set(name, owner);
    for (const parent of parents(name)) if (!this.below.has(parent)) this.below.set(parent, owner);
  }

  private wildcardAbove(name: string): IndexedEntry | undefined {
    for (const parent of parents(name)) {
      const owner = this.wildcard.get(parent);
      if (owner) return owner;
    }
    return undefined;
  }

  conflict(e: ParsedEntry): Conflict | undefined {
    let other: IndexedEntry | undefined;
    switch (e.kind) {
      case 'domain': {
        const same = this.exact.get(e.name);
        if (same) return { kind: 'duplicate', other: same };
        other = this.wildcardAbove(e.name);
        break;
      }
      case 'wildcard': {
        const same = this.wildcard.get(e.base);
        if (same) return { kind: 'duplicate', other: same };
        other = this.wildcardAbove(e.base) ?? this.below.get(e.base);
        break;
      }
      case 'ip':
      case 'cidr':
      case 'range':
        other = e.family === 4 ? this.v4.meeting(e.start, e.end) : this.v6.meeting(e.start, e.end);
    }
    if (!other) return undefined;
    return { kind: other.entry.value === e.value ? 'duplicate' : 'overlap', other };
  }
}

/** The entries of a perimeter, for checking new ones against the overlap rule. */
export class EntryOverlaps {
  private readonly byValue = new Map<string, IndexedEntry>();
  private readonly modes = { include: new ModeOverlaps(), exclude: new ModeOverlaps() };

  constructor(existing: IndexedEntry[] = []) {
    for (const mode of ['include', 'exclude'] as const) {
      this.modes[mode].load(existing.filter((e) => e.mode === mode));
    }
    for (const e of existing) this.byValue.set(e.entry.value, e);
  }

  /** What `candidate` would break, or undefined when it may be added. */
  conflict(candidate: { mode: EntryMode; entry: ParsedEntry }): Conflict | undefined {
    const same = this.byValue.get(candidate.entry.value);
    if (same) return { kind: 'duplicate', other: same };
    return this.modes[candidate.mode].conflict(candidate.entry);
  }

  add(entry: IndexedEntry): void {
    this.byValue.set(entry.entry.value, entry);
    this.modes[entry.mode].add(entry);
  }
}
