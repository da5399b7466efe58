import { randomBytes } from 'node:crypto';
import {
  chmodSync,
  closeSync,
  existsSync,
  fsyncSync,
  openSync,
  renameSync,
  rmSync,
  writeSync,
} from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { ApiError, NetworkError } from '../api/api-errors';
import type { AgentContext } from '../core/context';
import { AgentExit, ExitCode } from '../core/exit-codes';
import { withRetry } from '../core/retry';
import { StateDir } from '../state/state-dir';

/** OpenSSH's KRL magic (PROTOCOL.krl): "SSHKRL\n\0". */
const KRL_MAGIC = Buffer.from('SSHKRL\n\0', 'binary');
const TIMEOUT_MS = 30_000;

/** What the agent remembers of the KRL it wrote (`<state>/ssh/krl.json`). */
interface KrlRecord {
  path: string;
  etag: string;
  krl_version: string | null;
  written_at: string;
}

/**
 * `run --sshd-krl PATH` (docs/agent.md, "KRL for sshd"): downloads `GET /api/v1/ssh/krl` with
 * `If-None-Match` (the ETag of the last KRL written to PATH) and, when it changed, writes it
 * to PATH atomically with mode 0644 (sshd reads it as `RevokedKeys`; a temporary file in the
 * same directory, fsync, rename). An unchanged KRL (304) is not rewritten. A KRL missing at
 * PATH (deleted, or a new PATH) is fetched whole.
 */
export async function refreshSshdKrl(
  ctx: AgentContext,
  state: StateDir,
  server: string,
  path: string,
): Promise<'written' | 'unchanged' | 'unavailable'> {
  path = resolve(path);
  const dir = new StateDir(join(state.path, 'ssh'));
  dir.ensure();
  const known = readRecord(dir);
  const etag = known && known.path === path && existsSync(path) ? known.etag : undefined;
  let answer:
    { status: 304 } | { status: 200; bytes: Buffer; etag: string; version: string | null };
  try {
    answer = await withRetry(ctx, 'SSH KRL', () => fetchKrl(server, etag));
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    // 404 ssh_disabled: the service publishes no KRL; the file in place stays as it is.
    ctx.logger.warn('SSH KRL not available; the file in place is kept', {
      path,
      code: error.code,
    });
    return 'unavailable';
  }
  if (answer.status === 304) {
    ctx.logger.debug('SSH KRL unchanged', { path, krl_version: known?.krl_version });
    return 'unchanged';
  }
  if (!answer.bytes.subarray(0, KRL_MAGIC.length).equals(KRL_MAGIC)) {
    ctx.logger.warn('the service answered something that is not a KRL; the file is kept', {
      path,
      bytes: answer.bytes.length,
    });
    return 'unavailable';
  }
  writePublicFile(path, answer.bytes);
  const record: KrlRecord = {
    path,
    etag: answer.etag,
    krl_version: answer.version,
    written_at: ctx.clock.now().toISOString(),
  };
  dir.write('krl.json', `${JSON.stringify(record, null, 2)}\n`);
  ctx.logger.info('SSH KRL written for sshd', {
    path,
    krl_version: answer.version,
    bytes: answer.bytes.length,
  });
  return 'written';
}

async function fetchKrl(
  server: string,
  etag: string | undefined,
): Promise<{ status: 304 } | { status: 200; bytes: Buffer; etag: string; version: string | null }> {
  const url = `${server.replace(/\/+$/, '')}/api/v1/ssh/krl`;
  let res: Response;
  try {
    res = await fetch(url, {
      headers: {
        accept: 'application/octet-stream',
        ...(etag ? { 'if-none-match': etag } : {}),
      },
      signal: AbortSignal.timeout(TIMEOUT_MS),
      redirect: 'error',
    });
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    throw new NetworkError(`GET ${url} failed: ${cause?.code ?? cause?.message ?? error}`);
  }
  if (res.status === 304) return { status: 304 };
  const bytes = Buffer.from(await res.arrayBuffer());
  if (!res.ok) {
    let envelope: { code?: unknown; message?: unknown } = {};
    try {
      envelope = JSON.parse(bytes.toString('utf8')) as typeof envelope;
    } catch {
      envelope = {};
    }
    const retryAfter = Number(res.headers.get('retry-after'));
    throw new ApiError(
      res.status,
      typeof envelope.code === 'string' ? envelope.code : `http_${res.status}`,
      typeof envelope.message === 'string' ? envelope.message : `HTTP ${res.status}`,
      Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : undefined,
    );
  }
  return {
    status: 200,
    bytes,
    etag: res.headers.get('etag') ?? '',
    version: res.headers.get('x-krl-version'),
  };
}

/** Whole-file replacement readable by sshd (0644): temporary file beside it, fsync, rename. */
function writePublicFile(path: string, bytes: Buffer): void {
  const temporary = join(dirname(path), `.${basename(path)}.${randomBytes(6).toString('hex')}.tmp`);
  try {
    const fd = openSync(temporary, 'wx', 0o644);
    try {
      writeSync(fd, bytes);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    chmodSync(temporary, 0o644); // whatever the umask took away
    renameSync(temporary, path);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw new AgentExit(
      ExitCode.state,
      `cannot write the SSH KRL to ${path}: ${(error as Error).message}`,
    );
  }
}

function readRecord(dir: StateDir): KrlRecord | null {
  const text = dir.read('krl.json');
  if (text === null) return null;
  try {
    return JSON.parse(text) as KrlRecord;
  } catch {
    return null; // damaged: fetch the KRL whole
  }
}
