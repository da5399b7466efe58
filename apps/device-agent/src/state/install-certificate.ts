import type { AgentCertificate } from '../api/api-types';
import { renewAfter, writeStatus, type AgentStatus } from './agent-status';
import { StateFile, type StateDir } from './state-dir';

/** Stores a delivered certificate and CA bundle (0600 each) and the facts in agent-state.json. */
export function installCertificate(
  dir: StateDir,
  status: AgentStatus,
  delivered: { body: AgentCertificate; etag: string },
  now: Date,
): AgentStatus {
  dir.write(StateFile.caBundle, delivered.body.ca_bundle_pem);
  dir.write(StateFile.certificate, delivered.body.certificate_pem);
  return writeStatus(dir, withCertificate(status, delivered), now);
}

export function withCertificate(
  status: AgentStatus,
  delivered: { body: AgentCertificate; etag: string },
): AgentStatus {
  const { body } = delivered;
  return {
    ...status,
    state: status.renewal_request_id ? 'renewal_pending' : 'enrolled',
    request_id: body.request_id,
    request_status: 'issued',
    certificate_serial: body.serial,
    not_before: body.not_before,
    not_after: body.not_after,
    renew_after: renewAfter(body.not_before, body.not_after),
    bundle_version: body.bundle_version,
    etag: delivered.etag,
    reason: undefined,
  };
}
