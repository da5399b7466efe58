/**
 * Where the CPU of a query bench's request kind goes, from the profiles BENCH_CPU_PROFILE
 * writes (bench-session.ts):
 *
 *   SWC_NODE_PROJECT=tsconfig.base.json node -r @swc-node/register \
 *     tools/bench/query/profile-summary.ts <requests per kind> <dir or .cpuprofile files...>
 *
 * Prints, per profile, the CPU (samples, not idle) per request by part (µs): self time by
 * where the code lives (the findings list code, Nest, Fastify, pg, the bench's client, GC...),
 * then the inclusive time of the list's own steps and the heaviest functions.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { frameKey, REQUEST_STEPS } from './profile-frames';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** Parts by the file a function lives in (first match wins). */
const PARTS: Array<[part: string, test: (url: string, fn: string) => boolean]> = [
  ['(idle)', (_u, fn) => fn === '(idle)'],
  ['(gc)', (_u, fn) => fn === '(garbage collector)'],
  ['(program)', (_u, fn) => fn === '(program)'],
  // The inspector's native dispatch: Profiler.stop building the profile, not a request's work.
  ['(profiler itself)', (u, fn) => fn === 'dispatch' && u === ''],
  ['bench client (undici, tools/bench)', (u) => /undici|tools\/bench\//.test(u)],
  ['findings list/query/search code', (u) => /modules\/findings\//.test(u)],
  ['findings app (access, http, auth, rate limit)', (u) => /apps\/findings-service\//.test(u)],
  ['libs/*', (u) => /\/libs\//.test(u)],
  ['class-validator / class-transformer', (u) => /class-(validator|transformer)/.test(u)],
  ['@nestjs + rxjs', (u) => /@nestjs|rxjs/.test(u)],
  ['fastify', (u) => /fastify|find-my-way|avvio|light-my-request|fast-json|secure-json/.test(u)],
  ['pg', (u) => /node_modules\/(pg|pg-[a-z]+|postgres-[a-z]+)\//.test(u)],
  ['typeorm', (u) => /typeorm/.test(u)],
  ['ioredis / redis', (u) => /ioredis|redis/.test(u)],
  ['opentelemetry / pino', (u) => /opentelemetry|pino/.test(u)],
  ['jose / crypto', (u) => /jose|jsonwebtoken|jwt/.test(u)],
  ['node internals (http, net, streams)', (u) => u.startsWith('node:')],
  ['other node_modules', (u) => /node_modules/.test(u)],
  ['native / builtins (JSON, regexp)', (u) => u === ''],
  ['other', () => true],
];

function profilesIn(args: string[]): string[] {
  return args.flatMap((a) =>
    statSync(a).isDirectory()
      ? readdirSync(a)
          .filter((f) => f.endsWith('.cpuprofile'))
          .sort()
          .map((f) => join(a, f))
      : [a],
  );
}

function summarize(file: string, requests: number): void {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const partOf = new Map<number, string>();
  for (const n of profile.nodes) {
    const { url, functionName } = n.callFrame;
    partOf.set(n.id, PARTS.find(([, test]) => test(url, functionName))?.[0] ?? 'other');
  }
  const parts = new Map<string, number>();
  const self = new Map<string, number>();
  const steps = new Map<string, number>();
  let busy = 0;
  profile.samples.forEach((id, i) => {
    const dt = profile.timeDeltas[i] ?? 0;
    const node = byId.get(id);
    if (!node) return;
    const part = partOf.get(id) ?? 'other';
    parts.set(part, (parts.get(part) ?? 0) + dt);
    if (part !== '(idle)' && part !== '(profiler itself)') busy += dt;
    const key = frameKey(node.callFrame);
    self.set(key, (self.get(key) ?? 0) + dt);
    const seen = new Set<string>();
    for (let n: number | undefined = id; n !== undefined; n = parent.get(n)) {
      const fn = byId.get(n)?.callFrame.functionName ?? '';
      if (REQUEST_STEPS.includes(fn) && !seen.has(fn)) {
        seen.add(fn);
        steps.set(fn, (steps.get(fn) ?? 0) + dt);
      }
    }
  });
  const us = (v: number): string => (v / requests).toFixed(0).padStart(7);
  console.log(`\n## ${file}: busy ${us(busy)} us per request (${requests} requests)`);
  for (const [part, v] of [...parts].sort((a, b) => b[1] - a[1]))
    if (part !== '(idle)' && part !== '(profiler itself)') console.log(`${us(v)}  ${part}`);
  console.log('  inclusive (function name, any file):');
  for (const [fn, v] of [...steps].sort((a, b) => b[1] - a[1])) console.log(`${us(v)}    ${fn}`);
  console.log('  heaviest self:');
  for (const [fn, v] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 25))
    if (!fn.startsWith('(idle)') && !fn.startsWith('dispatch :')) console.log(`${us(v)}    ${fn}`);
}

const [requestsArg, ...paths] = process.argv.slice(2);
const requests = Number(requestsArg);
if (!requests || paths.length === 0)
  throw new Error('usage: profile-summary.ts <requests per kind> <dir or files...>');
for (const file of profilesIn(paths)) summarize(file, requests);
