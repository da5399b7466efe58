import { formatIpv4, formatIpv6 } from './ip-text';
import type { ParsedEntry } from './scope-entry-value';
import { parseTarget, type TargetReason } from './scope-target';

/**
 * A project's perimeter as a membership test: a target is **inside** when an include entry
 * covers it and no exclude entry does (an exclude always wins; it carves out of includes).
 * Addresses are checked against sorted, merged interval lists (IPv4 as numbers, IPv6 as
 * bigints) by binary search; host names against sets of exact names and wildcard bases,
 * walking the name's proper parent suffixes (`a.b.example.com` -> `b.example.com`,
 * `example.com`, `com`). Host names and addresses are separate: a name is never resolved.
 */
export type EntryMode = 'include' | 'exclude';

export interface PerimeterEntry {
  mode: EntryMode;
  entry: ParsedEntry;
}

/** Sorted, disjoint intervals of one family (overlapping ones merged). */
class IntervalList<T extends number | bigint> {
  readonly starts: T[] = [];
  readonly ends: T[] = [];

  constructor(intervals: [T, T][]) {
    intervals.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
    for (const [start, end] of intervals) {
      const last = this.ends.length - 1;
      if (last >= 0 && start <= this.ends[last]) {
        if (end > this.ends[last]) this.ends[last] = end;
        continue;
      }
      this.starts.push(start);
      this.ends.push(end);
    }
  }

  /** The intervals as bigints, adjacent ones (`end + 1 == start`) joined. */
  joined(): [bigint, bigint][] {
    const out: [bigint, bigint][] = [];
    for (let i = 0; i < this.starts.length; i += 1) {
      const start = BigInt(this.starts[i]);
      const end = BigInt(this.ends[i]);
      const last = out[out.length - 1];
      if (last && last[1] + 1n === start) last[1] = end;
      else out.push([start, end]);
    }
    return out;
  }

  /** Index of the last interval starting at or before `x`, or -1. */
  private floor(x: T): number {
    let lo = 0;
    let hi = this.starts.length - 1;
    let found = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      if (this.starts[mid] <= x) {
        found = mid;
        lo = mid + 1;
      } else {
        hi = mid - 1;
      }
    }
    return found;
  }

  contains(x: T): boolean {
    const i = this.floor(x);
    return i >= 0 && this.ends[i] >= x;
  }
}

/** Whether `name` or (for `proper`) only its parents are in `set`. */
function hasParentIn(set: Set<string>, name: string): boolean {
  for (let dot = name.indexOf('.'); dot >= 0; dot = name.indexOf('.', dot + 1)) {
    if (set.has(name.slice(dot + 1))) return true;
  }
  return false;
}

class ModeIndex {
  readonly v4: IntervalList<number>;
  readonly v6: IntervalList<bigint>;
  readonly exact = new Set<string>();
  /** Bases of wildcards: `example.com` for `*.example.com`. */
  readonly wildcard = new Set<string>();

  constructor(entries: ParsedEntry[]) {
    const v4: [number, number][] = [];
    const v6: [bigint, bigint][] = [];
    for (const e of entries) {
      if (e.kind === 'domain') this.exact.add(e.name);
      else if (e.kind === 'wildcard') this.wildcard.add(e.base);
      else if (e.family === 4) v4.push([e.start, e.end]);
      else v6.push([e.start, e.end]);
    }
    this.v4 = new IntervalList(v4);
    this.v6 = new IntervalList(v6);
  }

  coversName(name: string): boolean {
    return this.exact.has(name) || hasParentIn(this.wildcard, name);
  }
}

export type TargetVerdict = 'inside' | 'outside' | { invalid: TargetReason };

export interface FilterResult {
  inside: string[];
  outside: string[];
  invalid: { target: string; reason: TargetReason }[];
}

export class Perimeter {
  private readonly include: ModeIndex;
  private readonly exclude: ModeIndex;

  constructor(entries: readonly PerimeterEntry[]) {
    this.include = new ModeIndex(entries.filter((e) => e.mode === 'include').map((e) => e.entry));
    this.exclude = new ModeIndex(entries.filter((e) => e.mode === 'exclude').map((e) => e.entry));
  }

  verdict(target: string): TargetVerdict {
    const parsed = parseTarget(target);
    switch (parsed.kind) {
      case 'invalid':
        return { invalid: parsed.reason };
      case 'ipv4':
        return this.include.v4.contains(parsed.value) && !this.exclude.v4.contains(parsed.value)
          ? 'inside'
          : 'outside';
      case 'ipv6':
        return this.include.v6.contains(parsed.value) && !this.exclude.v6.contains(parsed.value)
          ? 'inside'
          : 'outside';
      case 'host':
        return this.include.coversName(parsed.name) && !this.exclude.coversName(parsed.name)
          ? 'inside'
          : 'outside';
    }
  }

  /** Sorts targets (trimmed, as given, in input order) into inside, outside and invalid. */
  filter(targets: readonly string[]): FilterResult {
    const result: FilterResult = { inside: [], outside: [], invalid: [] };
    for (const raw of targets) {
      const target = raw.trim();
      const verdict = this.verdict(target);
      if (verdict === 'inside') result.inside.push(target);
      else if (verdict === 'outside') result.outside.push(target);
      else result.invalid.push({ target, reason: verdict.invalid });
    }
    return result;
  }

  /**
   * The perimeter as a target list for a scanner: address blocks with the excludes already
   * taken out (minimal CIDR blocks; a single address bare), IPv4 then IPv6 in address order,
   * then exact names and wildcards (sorted) that no exclude removes. `excludes` holds what a
   * positive list cannot express: excluded names and wildcards inside an included wildcard
   * (`dev.example.com` under `*.example.com`); a scanner must skip those.
   */
  exportTargets(): { targets: string[]; excludes: string[] } {
    const targets = [
      ...subtract(this.include.v4.joined(), this.exclude.v4.joined()).flatMap(([s, e]) =>
        cidrBlocks(s, e, 32).map(([n, len]) =>
          len === 32 ? formatIpv4(Number(n)) : `${formatIpv4(Number(n))}/${len}`,
        ),
      ),
      ...subtract(this.include.v6.joined(), this.exclude.v6.joined()).flatMap(([s, e]) =>
        cidrBlocks(s, e, 128).map(([n, len]) =>
          len === 128 ? formatIpv6(n) : `${formatIpv6(n)}/${len}`,
        ),
      ),
    ];
    const names: string[] = [];
    for (const name of this.include.exact) {
      if (!this.exclude.coversName(name)) names.push(name);
    }
    for (const base of this.include.wildcard) {
      if (!this.exclude.wildcard.has(base) && !hasParentIn(this.exclude.wildcard, base)) {
        names.push(`*.${base}`);
      }
    }
    const excludes: string[] = [];
    for (const name of this.exclude.exact) {
      if (hasParentIn(this.include.wildcard, name)) excludes.push(name);
    }
    for (const base of this.exclude.wildcard) {
      if (hasParentIn(this.include.wildcard, base)) excludes.push(`*.${base}`);
    }
    return { targets: [...targets, ...names.sort()], excludes: excludes.sort() };
  }
}

/** `include` minus `exclude`, as intervals in order. */
function subtract(include: [bigint, bigint][], exclude: [bigint, bigint][]): [bigint, bigint][] {
  const out: [bigint, bigint][] = [];
  let j = 0;
  for (const [first, end] of include) {
    let start = first;
    while (j < exclude.length && exclude[j][1] < start) j += 1;
    for (let k = j; k < exclude.length && exclude[k][0] <= end && start <= end; k += 1) {
      if (exclude[k][0] > start) out.push([start, exclude[k][0] - 1n]);
      if (exclude[k][1] + 1n > start) start = exclude[k][1] + 1n;
    }
    if (start <= end) out.push([start, end]);
  }
  return out;
}

/** The minimal CIDR blocks covering exactly [start, end] (`bits`: 32 or 128). */
export function cidrBlocks(start: bigint, end: bigint, bits: number): [bigint, number][] {
  const blocks: [bigint, number][] = [];
  let at = start;
  while (at <= end) {
    let size = 0;
    // Grow the block while it stays aligned at `at` and inside the interval.
    while (size < bits) {
      const next = 1n << BigInt(size + 1);
      if (at % next !== 0n || at + next - 1n > end) break;
      size += 1;
    }
    blocks.push([at, bits - size]);
    at += 1n << BigInt(size);
  }
  return blocks;
}
