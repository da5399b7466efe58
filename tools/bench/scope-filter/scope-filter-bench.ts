/**
 * Scope filter benchmark (not part of `npm test`; docs/benchmarks.md#scope-filter).
 *
 *   SWC_NODE_PROJECT=tsconfig.base.json node -r @swc-node/register tools/bench/scope-filter/scope-filter-bench.ts
 *
 * The logic behind `POST /api/v1/projects/{id}/scope/filter`: a perimeter of 10 000 entries
 * (IPv4 and IPv6 blocks, ranges and addresses, names and wildcards; one in ten an exclude) is
 * built from its stored values and asked about 100 000 targets (addresses, `host:port`, names,
 * URLs, some invalid). Prints the first (cold) run and the median of BENCH_REPEAT (default 7)
 * warm runs — parsing the entries, building the interval lists and name sets, and sorting every
 * target — against the target of 1 s. In-run reference: the same membership test as a plain
 * loop over all entries for BENCH_SAMPLE targets (default 2 000), extrapolated to 100 000; the
 * ratio says how many times faster the sorted lists and suffix walks are. The sample's verdicts
 * of both are compared (a mismatch fails the run).
 * Env: BENCH_ENTRIES (10 000), BENCH_TARGETS (100 000), BENCH_REPEAT, BENCH_SAMPLE.
 */
import { cpus, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { EntryOverlaps } from '../../../apps/findings-service/src/modules/scope/perimeter/entry-overlaps';
import {
  Perimeter,
  type EntryMode,
  type PerimeterEntry,
} from '../../../apps/findings-service/src/modules/scope/perimeter/perimeter';
import {
  formatIpv4,
  formatIpv6,
} from '../../../apps/findings-service/src/modules/scope/perimeter/ip-text';
import {
  parseEntryValue,
  type ParsedEntry,
} from '../../../apps/findings-service/src/modules/scope/perimeter/scope-entry-value';
import {
  parseTarget,
  type ParsedTarget,
} from '../../../apps/findings-service/src/modules/scope/perimeter/scope-target';

const ENTRIES = Number(process.env['BENCH_ENTRIES'] ?? 10_000);
const TARGETS = Number(process.env['BENCH_TARGETS'] ?? 100_000);
const REPEAT = Number(process.env['BENCH_REPEAT'] ?? 7);
const SAMPLE = Number(process.env['BENCH_SAMPLE'] ?? 2_000);

function rng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 0x100000000;
  };
}
const random = rng(23);
const pick = (n: number): number => Math.floor(random() * n);
const hex = (n: number): string => n.toString(16);

/** One candidate entry value of a random kind. */
function candidate(i: number): string {
  switch (i % 8) {
    case 0:
      return `10.${pick(256)}.${pick(256)}.0/24`;
    case 1:
      return `172.${16 + pick(16)}.${pick(256)}.${pick(16) * 16}/28`;
    case 2: {
      const [c, start] = [pick(256), pick(200)];
      return `192.168.${c}.${start}-192.168.${c}.${start + pick(50)}`;
    }
    case 3:
      return `2001:db8:${hex(pick(0x10000))}::/48`;
    case 4: {
      const group = `${hex(pick(0x10000))}:${hex(pick(0x10000))}`;
      return `2001:db8:${group}::1-2001:db8:${group}::ff`;
    }
    case 5:
      return `host${pick(1_000_000)}.example.com`;
    case 6:
      return `*.zone${pick(100_000)}.example.org`;
    default:
      return `198.18.${pick(256)}.${pick(256)}`;
  }
}

/** `ENTRIES` entries that pass the overlap rule, as the service would have stored them. */
function perimeterEntries(): PerimeterEntry[] {
  const overlaps = new EntryOverlaps();
  const entries: PerimeterEntry[] = [];
  for (let i = 0; entries.length < ENTRIES; i += 1) {
    const parsed = parseEntryValue(candidate(i));
    if (!parsed.ok) continue;
    const mode: EntryMode = entries.length % 10 === 9 ? 'exclude' : 'include';
    const entry = { ref: String(i), mode, entry: parsed.entry };
    if (overlaps.conflict(entry)) continue;
    overlaps.add(entry);
    entries.push({ mode, entry: parsed.entry });
  }
  return entries;
}

/** A target covered by `e` (an exclude's carves it out), written in one of the target forms. */
function within(e: ParsedEntry, i: number): string {
  switch (e.kind) {
    case 'domain':
      return i % 3 === 0 ? `https://${e.name}/path` : e.name;
    case 'wildcard':
      return i % 3 === 0 ? `https://w${i}.${e.base}:8443/` : `w${i}.${e.base}`;
    case 'ip':
    case 'cidr':
    case 'range':
      if (e.family === 4) {
        const text = formatIpv4(e.start + pick(e.end - e.start + 1));
        return i % 3 === 0 ? `${text}:443` : text;
      }
      return formatIpv6(
        e.start + BigInt(pick(Number(e.end - e.start < 1000n ? e.end - e.start : 1000n) + 1)),
      );
  }
}

/** `TARGETS` targets: about half drawn from the entries (inside unless excluded), some invalid. */
function targets(entries: PerimeterEntry[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < TARGETS; i += 1) {
    const e = entries[pick(entries.length)].entry;
    const near = random() < 0.5;
    if (near) {
      out.push(within(e, i));
      continue;
    }
    switch (i % 10) {
      case 0:
      case 1:
        out.push(`10.${pick(256)}.${pick(256)}.${pick(256)}`);
        break;
      case 2:
        out.push(`172.${16 + pick(16)}.${pick(256)}.${pick(256)}:${1 + pick(65535)}`);
        break;
      case 3:
        out.push(`2001:db8:${hex(pick(0x10000))}::${hex(pick(0x10000))}`);
        break;
      case 4:
        out.push(`[2001:db8:${hex(pick(0x10000))}:${hex(pick(0x10000))}::${hex(pick(256))}]:443`);
        break;
      case 5:
        out.push(`host${pick(1_000_000)}.example.com`);
        break;
      case 6:
        out.push(`https://app${pick(9)}.zone${pick(100_000)}.example.org:8443/login?x=${i}`);
        break;
      case 7:
        out.push(`a.b.zone${pick(100_000)}.example.org`);
        break;
      case 8:
        out.push(`198.18.${pick(256)}.${pick(256)}`);
        break;
      default:
        out.push(i % 20 === 9 ? `bad..name${i}` : `192.168.${pick(256)}.${pick(256)}`);
    }
  }
  return out;
}

function covers(e: ParsedEntry, t: ParsedTarget): boolean {
  switch (e.kind) {
    case 'domain':
      return t.kind === 'host' && t.name === e.name;
    case 'wildcard':
      return t.kind === 'host' && t.name.endsWith(`.${e.base}`);
    case 'ip':
    case 'cidr':
    case 'range':
      if (e.family === 4) return t.kind === 'ipv4' && t.value >= e.start && t.value <= e.end;
      return t.kind === 'ipv6' && t.value >= e.start && t.value <= e.end;
  }
}

/** The reference: every target against every entry in a plain loop. */
function linearVerdict(entries: PerimeterEntry[], target: string): string {
  const t = parseTarget(target);
  if (t.kind === 'invalid') return `invalid:${t.reason}`;
  let included = false;
  for (const { mode, entry } of entries) {
    if (!covers(entry, t)) continue;
    if (mode === 'exclude') return 'outside';
    included = true;
  }
  return included ? 'inside' : 'outside';
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

function run(entries: PerimeterEntry[], list: string[]): { ms: number; inside: number } {
  const stored = entries.map((e) => ({ mode: e.mode, value: e.entry.value }));
  const start = performance.now();
  // What the service does per request: parse the stored values, build, filter.
  const parsed: PerimeterEntry[] = [];
  for (const row of stored) {
    const p = parseEntryValue(row.value);
    if (p.ok) parsed.push({ mode: row.mode, entry: p.entry });
  }
  const result = new Perimeter(parsed).filter(list);
  return { ms: performance.now() - start, inside: result.inside.length };
}

function main(): void {
  const entries = perimeterEntries();
  const list = targets(entries);
  const kinds = new Map<string, number>();
  for (const e of entries) kinds.set(e.entry.kind, (kinds.get(e.entry.kind) ?? 0) + 1);
  console.log(
    `machine: ${cpus().length} x ${cpus()[0]?.model ?? '?'}, Node ${process.version}, load ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  console.log(
    `perimeter: ${entries.length} entries (${[...kinds].map(([k, n]) => `${k} ${n}`).join(', ')}; ${
      entries.filter((e) => e.mode === 'exclude').length
    } excludes); targets: ${list.length}`,
  );

  const cold = run(entries, list);
  const warm: number[] = [];
  for (let i = 0; i < REPEAT; i += 1) warm.push(run(entries, list).ms);
  const result = new Perimeter(entries).filter(list);
  console.log(
    `filter: first run ${cold.ms.toFixed(1)} ms, median of ${REPEAT} ${median(warm).toFixed(1)} ms (min ${Math.min(
      ...warm,
    ).toFixed(1)}, max ${Math.max(...warm).toFixed(1)}); inside ${result.inside.length}, outside ${
      result.outside.length
    }, invalid ${result.invalid.length}; target <= 1000 ms: ${Math.max(cold.ms, median(warm)) <= 1000 ? 'met' : 'MISSED'}`,
  );

  const perimeter = new Perimeter(entries);
  // A stride prime to the generator's cycles, so every kind of target is in the sample.
  const stride = 47;
  const sample = Array.from(
    { length: Math.min(SAMPLE, Math.floor(list.length / stride)) },
    (_, k) => list[k * stride],
  );
  const mismatches = sample.filter((target) => {
    const v = perimeter.verdict(target);
    const fast = typeof v === 'string' ? v : `invalid:${v.invalid}`;
    return fast !== linearVerdict(entries, target);
  });
  const start = performance.now();
  for (const target of sample) linearVerdict(entries, target);
  const linearMs = performance.now() - start;
  const extrapolated = (linearMs / sample.length) * list.length;
  console.log(
    `reference: plain loop over ${entries.length} entries, ${sample.length} targets in ${linearMs.toFixed(
      1,
    )} ms -> ${(extrapolated / 1000).toFixed(1)} s for ${list.length} (extrapolated); ratio ${(
      extrapolated / median(warm)
    ).toFixed(
      0,
    )}x; verdicts of the sample agree: ${mismatches.length === 0 ? 'yes' : `NO (${mismatches.length})`}`,
  );
  if (mismatches.length > 0) {
    console.error(`mismatches: ${mismatches.slice(0, 5).join(', ')}`);
    process.exitCode = 1;
  }
}

main();
