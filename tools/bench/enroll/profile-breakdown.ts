/**
 * Where the enrollment server's time goes, from a `node --cpu-prof` profile of
 * server-process.ts (BENCH_SERVER_NODE_ARGS="--cpu-prof --cpu-prof-dir=DIR"):
 *
 *   node -r @swc-node/register tools/bench/enroll/profile-breakdown.ts FILE SECONDS [CPU_MS]
 *
 * SECONDS: only the profile's last seconds (the timed series, not the boot). Each sample goes
 * to the first owner found walking from the running function towards the root (a socket write
 * made by `pg` is the database client's; one made by Fastify is HTTP's). CPU_MS (the bench's
 * server CPU per device) turns the shares into µs per device.
 */
import { readFileSync } from 'node:fs';

interface CallFrame {
  functionName: string;
  url: string;
}
interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

const OWNERS: Array<[string, (f: CallFrame) => boolean]> = [
  ['idle', (f) => f.functionName === '(idle)'],
  ['garbage collector', (f) => f.functionName === '(garbage collector)'],
  [
    'PostgreSQL client (pg, TypeORM, their socket writes)',
    (f) => /node_modules\/(pg|pg-protocol|pg-pool|typeorm)\//.test(f.url),
  ],
  [
    'rate limit (Redis EVAL through ioredis)',
    (f) => /node_modules\/ioredis\/|client-rate-limit|libs\/http\/src\/client\//.test(f.url),
  ],
  [
    'logging (pino-http, access line, pino)',
    (f) =>
      /node_modules\/(pino|pino-http|sonic-boom|@pinojs)\/|libs\/logging\/|app\/logging\//.test(
        f.url,
      ),
  ],
  ['CSR parse + signature check', (f) => /libs\/pki\//.test(f.url)],
  ['tracing (OpenTelemetry server span)', (f) => /opentelemetry|libs\/tracing\//.test(f.url)],
  [
    'validation (class-validator, class-transformer)',
    (f) => /class-(validator|transformer)/.test(f.url),
  ],
  ['nonce, token and secret generation', (f) => /libs\/auth\//.test(f.url)],
  ['metrics (prom-client)', (f) => /prom-client/.test(f.url)],
  ['enrollment code', (f) => /modules\/(enrollment|app-attest|settings|devices)\//.test(f.url)],
  [
    'HTTP (Fastify, Node http), Nest, body parsing',
    (f) => /fastify|find-my-way|@nestjs|libs\/http\/src\/|node:_http/.test(f.url),
  ],
];
const OTHER = 'other (event loop, promises, streams, buffers)';

function main(): void {
  const [file, seconds, cpuMs] = process.argv.slice(2);
  if (!file) throw new Error('usage: profile-breakdown.ts FILE SECONDS [CPU_MS]');
  const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const parents = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parents.set(c, n.id);
  const from = profile.endTime - Number(seconds ?? 0) * 1e6;
  const owned = new Map<string, number>();
  let at = profile.startTime;
  for (let i = 0; i < profile.samples.length; i++) {
    at += profile.timeDeltas[i]!;
    if (at < from) continue;
    const ms = (profile.timeDeltas[i + 1] ?? 0) / 1000;
    let id: number | undefined = profile.samples[i]!;
    const leaf = nodes.get(id)!.callFrame;
    let owner = OTHER;
    walk: while (id !== undefined) {
      const frame = nodes.get(id)!.callFrame;
      for (const [name, test] of OWNERS) {
        if (test(frame)) {
          owner = name;
          break walk;
        }
      }
      id = parents.get(id);
    }
    if (owner === OTHER && leaf.url.includes('crypto'))
      owner = 'nonce, token and secret generation';
    owned.set(owner, (owned.get(owner) ?? 0) + ms);
  }
  owned.delete('idle');
  const busy = [...owned.values()].reduce((a, b) => a + b, 0);
  console.log(`busy ${busy.toFixed(0)} ms sampled`);
  console.log('| where | share of the server CPU | per device |');
  console.log('| ----- | ---------------------- | ---------- |');
  for (const [name, ms] of [...owned].sort((a, b) => b[1] - a[1])) {
    const perDevice = cpuMs ? `${((ms / busy) * Number(cpuMs) * 1000).toFixed(0)} µs` : '';
    console.log(`| ${name} | ${((ms / busy) * 100).toFixed(1)} % | ${perDevice} |`);
  }
}

main();
