import { X509Certificate } from 'node:crypto';
import type { AgentCertificate } from '../api/api-types';
import { writeStatus, type AgentStatus } from '../state/agent-status';
import { withCertificate } from '../state/install-certificate';
import { StateFile, type StateDir } from '../state/state-dir';

/**
 * Moves a renewed certificate into place. `renewal-certificate.pem` is the journal: written
 * last before the swap and moved last in it, so a crash anywhere in between leaves it on disk
 * and the next pass finishes the same swap (each rename is atomic; a rename already done is
 * skipped).
 */
export function swapRenewal(
  dir: StateDir,
  status: AgentStatus,
  now: Date,
  delivered?: { body: AgentCertificate; etag: string },
): AgentStatus {
  dir.promote(StateFile.renewalKey, StateFile.key);
  // A TPM-resident key: its blobs (the renewal key was made and certified in the same TPM).
  dir.promote('tpm/renewal-key.priv', 'tpm/key.priv');
  dir.promote('tpm/renewal-key.pub', 'tpm/key.pub');
  dir.promote(StateFile.renewalCaBundle, StateFile.caBundle);
  dir.promote(StateFile.renewalAgentSecret, StateFile.agentSecret);
  dir.promote(StateFile.renewalRequestId, StateFile.requestId);
  dir.promote(StateFile.renewalCertificate, StateFile.certificate);
  const base: AgentStatus = { ...status, renewal_request_id: undefined };
  if (delivered) return writeStatus(dir, withCertificate(base, delivered), now);
  // Recovery after a crash: the facts from the files (bundle version unknown: refreshed next).
  const pem = dir.read(StateFile.certificate) ?? '';
  const certificate = new X509Certificate(pem);
  const body: AgentCertificate = {
    request_id: (dir.read(StateFile.requestId) ?? '').trim(),
    serial: certificate.serialNumber.toLowerCase(),
    certificate_pem: pem,
    ca_bundle_pem: dir.read(StateFile.caBundle) ?? '',
    not_before: new Date(certificate.validFrom).toISOString(),
    not_after: new Date(certificate.validTo).toISOString(),
    bundle_version: '',
  };
  return writeStatus(
    dir,
    { ...withCertificate(base, { body, etag: '' }), bundle_version: undefined, etag: undefined },
    now,
  );
}

/** A swap a crash interrupted, finished (nothing when none is pending). */
export function finishInterruptedSwap(dir: StateDir, status: AgentStatus, now: Date): AgentStatus {
  return dir.has(StateFile.renewalCertificate) ? swapRenewal(dir, status, now) : status;
}
