import { ApiError } from '../api/api-errors';
import type { CrlAnswer } from '../api/api-types';
import type { CertsvcClient } from '../api/certsvc-client';
import type { AgentContext } from '../core/context';
import { AgentExit, ExitCode } from '../core/exit-codes';
import { withRetry } from '../core/retry';
import { certificatesOf, normalizeSerial, parseCrl } from '../crypto/crl';
import { writeStatus, type AgentStatus } from '../state/agent-status';
import { StateFile, type StateDir } from '../state/state-dir';

export interface Revocation {
  /** The installed certificate is on a CRL signed by a CA of the delivered bundle. */
  readonly revoked: boolean;
  readonly issuer?: string;
}

/** `crl-cache.json`: the last `POST /enroll/crl` answer, used until its earliest next_update. */
interface CrlCache extends CrlAnswer {
  fetched_at: string;
}

/**
 * Is the installed certificate revoked? Reads the CRLs of `POST /enroll/crl` — from
 * `crl-cache.json` while the agent's clock is before the earliest `next_update` of the cached
 * CRLs, unless `refresh` — uses only those signed by a CA of the delivered bundle, and looks for
 * the certificate's serial. No CRL (404 `crl_unavailable`): nothing to check.
 */
export async function checkRevocation(
  ctx: AgentContext,
  dir: StateDir,
  client: CertsvcClient,
  status: AgentStatus,
  options: { refresh?: boolean } = {},
): Promise<Revocation> {
  if (!status.certificate_serial) return { revoked: false };
  const crls = await currentCrls(ctx, dir, client, options.refresh === true);
  if (!crls) return { revoked: false };
  const issuers = certificatesOf(dir.read(StateFile.caBundle) ?? '');
  const serial = normalizeSerial(status.certificate_serial);
  for (const crl of crls.crls) {
    let parsed;
    try {
      parsed = parseCrl(Buffer.from(crl.pem.replace(/-----[^-]+-----|\s/g, ''), 'base64'));
    } catch (error) {
      ctx.logger.warn('CRL not readable, ignored', {
        issuer: crl.issuer,
        cause: (error as Error).message,
      });
      continue;
    }
    if (!parsed.signedBy(issuers)) {
      ctx.logger.warn('CRL not signed by a CA of the bundle, ignored', { issuer: crl.issuer });
      continue;
    }
    if (parsed.revoked.has(serial)) return { revoked: true, issuer: crl.issuer };
  }
  ctx.logger.debug('certificate not revoked', { certificate_serial: status.certificate_serial });
  return { revoked: false };
}

/** State `revoked`, exit 3 (docs/agent.md, "States"). */
export function revokedExit(
  ctx: AgentContext,
  dir: StateDir,
  status: AgentStatus,
  issuer: string | undefined,
): never {
  writeStatus(dir, { ...status, state: 'revoked', reason: 'certificate_revoked' }, ctx.clock.now());
  throw new AgentExit(
    ExitCode.refused,
    `certificate ${status.certificate_serial} is revoked (CRL of ${issuer}); state revoked: ` +
      '`enroll` again for a new certificate (docs/agent.md, "States")',
  );
}

/** The cached CRLs while fresh, else a download (cached); null when the service has none. */
async function currentCrls(
  ctx: AgentContext,
  dir: StateDir,
  client: CertsvcClient,
  refresh: boolean,
): Promise<CrlAnswer | null> {
  const cached = readCache(dir);
  const now = ctx.clock.now().getTime();
  if (cached && !refresh) {
    const nextUpdate = Math.min(...cached.crls.map((crl) => Date.parse(crl.next_update)));
    if (Number.isFinite(nextUpdate) && now < nextUpdate) {
      ctx.logger.debug('CRL from the cache', {
        next_update: new Date(nextUpdate).toISOString(),
      });
      return cached;
    }
  }
  let answer: CrlAnswer;
  try {
    answer = await withRetry(ctx, 'CRL', () => client.crls());
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    ctx.logger.debug('no CRL to check', { code: error.code });
    dir.remove(StateFile.crlCache);
    return null;
  }
  const cache: CrlCache = { fetched_at: ctx.clock.now().toISOString(), crls: answer.crls };
  dir.write(StateFile.crlCache, `${JSON.stringify(cache)}\n`);
  ctx.logger.debug('CRL downloaded', { crls: answer.crls.length, refresh });
  return answer;
}

function readCache(dir: StateDir): CrlCache | null {
  const text = dir.read(StateFile.crlCache);
  if (text === null) return null;
  try {
    const cache = JSON.parse(text) as CrlCache;
    return Array.isArray(cache.crls) && cache.crls.length > 0 ? cache : null;
  } catch {
    return null; // a damaged cache is downloaded again
  }
}
