import { existsSync, readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { ApiError } from '../api/api-errors';
import type { CertsvcClient } from '../api/certsvc-client';
import type { AgentContext } from '../core/context';
import { withRetry } from '../core/retry';
import { StateFile, type StateDir } from '../state/state-dir';

/** The service's limit is 10 MiB of gzip; the agent sends at most this much text before gzip. */
const MAX_TEXT_BYTES = 32 * 1024 * 1024;

/**
 * Uploads a log snapshot when the check-in asked for one (log-snapshots.md): the machine and
 * user halves' files (rotated generations first, oldest first) as one gzip of JSON lines, the
 * newest lines kept when they exceed the bound. Without `--log-file` the snapshot says so and
 * carries `agent-state.json` (no secret in it). A refusal is logged; the next check-in asks again.
 */
export async function uploadLogSnapshot(
  ctx: AgentContext,
  dir: StateDir,
  client: CertsvcClient,
  requestId: string,
  secret: string,
): Promise<void> {
  const text = snapshotText(ctx, dir);
  try {
    const stored = await withRetry(ctx, 'log snapshot', () =>
      client.uploadLogs(requestId, secret, gzipSync(text)),
    );
    ctx.logger.info('log snapshot uploaded', { snapshot_id: stored.id, bytes: text.length });
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    ctx.logger.warn('log snapshot refused', { code: error.code });
  }
}

function snapshotText(ctx: AgentContext, dir: StateDir): Buffer {
  const parts: Buffer[] = [];
  for (const file of ctx.logFiles) {
    for (let n = 9; n >= 1; n -= 1) {
      if (existsSync(`${file}.${n}`)) parts.push(readFileSync(`${file}.${n}`));
    }
    if (existsSync(file)) parts.push(readFileSync(file));
  }
  if (parts.length === 0) {
    const note = {
      time: ctx.clock.now().toISOString(),
      level: 'info',
      half: 'machine',
      msg: 'no --log-file configured: the snapshot holds the agent state only',
      state: dir.read(StateFile.status) ?? null,
    };
    parts.push(Buffer.from(`${JSON.stringify(note)}\n`));
  }
  const all = Buffer.concat(parts);
  return all.length > MAX_TEXT_BYTES ? all.subarray(all.length - MAX_TEXT_BYTES) : all;
}
