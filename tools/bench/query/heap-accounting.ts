// The API process's heap allocation and garbage collections between two takes (issue 34): V8's
// GCProfiler gives the heap's used size before and after every collection, so the bytes
// allocated in between are the sum of (used before a collection − used after the previous
// one), plus the growth since the last. Runs where the API runs (server-process.ts, or the
// bench's own process in BENCH_API_IN_PROCESS=1, where the client's allocations count too).
import { GCProfiler, getHeapStatistics } from 'node:v8';

export interface HeapCounts {
  /** Bytes allocated on the V8 heap since the previous take. */
  allocatedBytes: number;
  /** Young-generation collections (scavenges) and their summed pause, µs. */
  scavenges: number;
  scavengeMicros: number;
  /** Every other collection (mark-compact, incremental marking steps, weak callbacks). */
  otherGcs: number;
  otherGcMicros: number;
}

interface GcStatistic {
  gcType: string;
  cost: number;
  beforeGC: { heapStatistics: { usedHeapSize: number } };
  afterGC: { heapStatistics: { usedHeapSize: number } };
}

let profiler: GCProfiler | undefined;
let usedAtStart = 0;

/** Starts counting (the first take counts from here). */
export function startHeapAccounting(): void {
  profiler = new GCProfiler();
  usedAtStart = getHeapStatistics().used_heap_size;
  profiler.start();
}

/** Counts since the last take (or the start), and starts counting again. */
export function takeHeapCounts(): HeapCounts {
  const stopped = profiler?.stop() as { statistics: GcStatistic[] } | undefined;
  const counts: HeapCounts = {
    allocatedBytes: 0,
    scavenges: 0,
    scavengeMicros: 0,
    otherGcs: 0,
    otherGcMicros: 0,
  };
  let used = usedAtStart;
  for (const gc of stopped?.statistics ?? []) {
    counts.allocatedBytes += Math.max(0, gc.beforeGC.heapStatistics.usedHeapSize - used);
    used = gc.afterGC.heapStatistics.usedHeapSize;
    if (gc.gcType === 'Scavenge') {
      counts.scavenges++;
      counts.scavengeMicros += gc.cost;
    } else {
      counts.otherGcs++;
      counts.otherGcMicros += gc.cost;
    }
  }
  startHeapAccounting();
  counts.allocatedBytes += Math.max(0, usedAtStart - used);
  return counts;
}
