import type { WebhookEvent } from '../webhooks/webhook-events';
import type { NewCertificate } from './issuance.repository';
import type { ApprovedRequest, IssuanceOutcome } from './issuance.types';

/**
 * The webhook events of one issuance batch (docs/certificate-service/webhooks.md):
 * `request.approved` per approved request (issued or waiting at the CA) and
 * `certificate.issued` per certificate, written to the outbox in the batch's transaction.
 */
export function issuanceEvents(
  rows: readonly ApprovedRequest[],
  outcomes: ReadonlyMap<string, IssuanceOutcome>,
  certificates: readonly NewCertificate[],
  decidedBy: string,
): WebhookEvent[] {
  const byRequest = new Map(certificates.map((c) => [c.requestId, c]));
  const events: WebhookEvent[] = [];
  for (const row of rows) {
    const outcome = outcomes.get(row.requestId);
    if (!outcome || outcome.status === 'error') continue;
    const serial = outcome.status === 'issued' ? outcome.serial : null;
    events.push({
      type: 'request.approved',
      data: {
        request_id: row.requestId,
        device_id: row.deviceId,
        purpose: row.purpose,
        status: outcome.status,
        certificate_serial: serial,
        decided_by: decidedBy,
      },
    });
    if (serial === null) continue;
    const cert = byRequest.get(row.requestId);
    events.push({
      type: 'certificate.issued',
      data: {
        serial,
        request_id: row.requestId,
        device_id: row.deviceId,
        purpose: row.purpose,
        subject: cert?.subject ?? null,
        user_identity: cert?.userIdentity ?? null,
        not_before: cert?.notBefore.toISOString() ?? null,
        not_after: cert?.notAfter.toISOString() ?? null,
        issuer_kind: cert?.issuerKind ?? 'ssh',
      },
    });
  }
  return events;
}
