// What the two suppression benches share: the real API booted in-process on a scratch database
// (migrations, the local admin), JSON calls to it, and medians.
import 'reflect-metadata';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { createFindingsApp } from '../../../apps/findings-service/src/api/create-app';
import { loadFindingsConfig } from '../../../apps/findings-service/src/app/config/findings-config';
import {
  findingsBenchVars,
  listenOnLoopback,
  localLogin,
  scratchDatabase,
  type ScratchDatabase,
} from '../support/findings-bench-app';

export interface BenchApi {
  app: NestFastifyApplication;
  db: ScratchDatabase;
  url: string;
  token: string;
  close(): Promise<void>;
}

export async function startBenchApi(prefix: string): Promise<BenchApi> {
  const db = await scratchDatabase(prefix);
  const app = await createFindingsApp(loadFindingsConfig(findingsBenchVars(db), 'api'));
  const url = await listenOnLoopback(app);
  return {
    app,
    db,
    url,
    token: await localLogin(url),
    async close() {
      await app.close();
      await db.drop();
    },
  };
}

/** POST (PUT for members) as the admin; the answer's `data`. */
export async function post(
  api: BenchApi,
  path: string,
  body: unknown,
): Promise<Record<string, unknown>> {
  const res = await fetch(`${api.url}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${api.token}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const json = (await res.json()) as { data: Record<string, unknown> };
  if (res.status >= 300) throw new Error(`${path}: ${res.status} ${JSON.stringify(json)}`);
  return json.data;
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

export const fmt = (n: number): string => Math.round(n).toLocaleString('en-US');
