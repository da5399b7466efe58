import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { Purpose } from '../../app/domain/purposes';
import type { IssuableCsr } from '@platform/pki';
import type { RequestStatus } from '../requests/request-status';
import { rejectPendingRequests } from '../requests/request-writes.repository';
import { WebhookOutbox } from '../webhooks/webhook-outbox';

/** A request as the approval checks see it, with its device. */
export interface ApprovalCandidate {
  id: string;
  deviceId: string;
  purpose: Purpose;
  status: RequestStatus;
  /** For `ssh`: `der` is the OpenSSH public key blob (see the request entity). */
  csr: Omit<IssuableCsr, 'keyAlgorithm'> & { keyAlgorithm: 'rsa' | 'ec' | 'ed25519' };
  requesterKind: 'device' | 'user';
  userIdentity: string | null;
  upn: string | null;
  sid: string | null;
  registeredDuringBlock: boolean;
  serial: string;
  deviceBlocked: boolean;
  identityKey: string;
  /** Device owner (an `ssh` certificate's principals come from it). */
  owner: string | null;
  /** The request carried verified TPM evidence, or (user, SSH) its device has a pinned AK. */
  attested: boolean;
  /** The device has a pinned EK or AK. */
  deviceTpmBound: boolean;
}

export interface ConflictGroup {
  serial: string;
  purpose: Purpose;
  userIdentity: string | null;
  pendingRequestIds: string[];
  activeCertificateSerials: string[];
}

@Injectable()
export class ApprovalRepository {
  constructor(
    private readonly dataSource: DataSource,
    private readonly outbox: WebhookOutbox,
  ) {}

  async candidates(ids: readonly string[]): Promise<ApprovalCandidate[]> {
    const rows = (await this.dataSource.query(
      `SELECT r.id, r.device_id, r.purpose, r.status, r.csr_der, r.public_key_spki_der,
              r.key_algorithm, r.requester_kind,
              r.user_identity, r.upn, r.sid, r.registered_during_block,
              d.serial, d.blocked, d.identity_key, d.owner,
              (r.attestation = 'tpm'
                OR (r.purpose <> 'wifi' AND d.tpm_ak_public IS NOT NULL)) AS attested,
              (d.tpm_ek_cert_serial IS NOT NULL OR d.tpm_ak_public IS NOT NULL) AS tpm_bound
       FROM certificate_requests r JOIN devices d ON d.id = r.device_id
       WHERE r.id = ANY($1::uuid[])`,
      [ids],
    )) as {
      id: string;
      device_id: string;
      purpose: Purpose;
      status: RequestStatus;
      csr_der: Buffer;
      public_key_spki_der: Buffer;
      key_algorithm: 'rsa' | 'ec' | 'ed25519';
      requester_kind: 'device' | 'user';
      user_identity: string | null;
      upn: string | null;
      sid: string | null;
      registered_during_block: boolean;
      serial: string;
      blocked: boolean;
      identity_key: string;
      owner: string | null;
      attested: boolean;
      tpm_bound: boolean;
    }[];
    return rows.map((r) => ({
      id: r.id,
      deviceId: r.device_id,
      purpose: r.purpose,
      status: r.status,
      csr: {
        der: r.csr_der,
        publicKeySpkiDer: r.public_key_spki_der,
        keyAlgorithm: r.key_algorithm,
      },
      requesterKind: r.requester_kind,
      userIdentity: r.user_identity,
      upn: r.upn,
      sid: r.sid,
      registeredDuringBlock: r.registered_during_block,
      serial: r.serial,
      deviceBlocked: r.blocked,
      identityKey: r.identity_key,
      owner: r.owner,
      attested: r.attested,
      deviceTpmBound: r.tpm_bound,
    }));
  }

  async statuses(ids: readonly string[]): Promise<Map<string, RequestStatus>> {
    const rows = (await this.dataSource.query(
      `SELECT id, status FROM certificate_requests WHERE id = ANY($1::uuid[])`,
      [ids],
    )) as { id: string; status: RequestStatus }[];
    return new Map(rows.map((r) => [r.id, r.status]));
  }

  /**
   * Rejects the requests still pending (one UPDATE of the requests module) and writes their
   * `request.rejected` webhook events in the same transaction; returns their ids.
   */
  async rejectPending(
    ids: readonly string[],
    reason: string | null,
    decidedBy: string,
    at: Date,
  ): Promise<Set<string>> {
    return this.dataSource.transaction(async (em) => {
      const rejected = await rejectPendingRequests(em, ids, reason, decidedBy, at);
      await this.outbox.enqueue(
        em,
        [...rejected].map((requestId) => ({
          type: 'request.rejected' as const,
          data: { request_id: requestId, reason, decided_by: decidedBy },
        })),
      );
      return rejected;
    });
  }

  /** For each device+purpose(+user) of the pending requests: its pending requests and current certificates. */
  async conflictGroups(ids: readonly string[]): Promise<ConflictGroup[]> {
    const rows = (await this.dataSource.query(
      `WITH g AS (
         SELECT DISTINCT device_id, purpose, user_identity FROM certificate_requests
         WHERE id = ANY($1::uuid[]) AND status = 'pending')
       SELECT d.serial, g.purpose, g.user_identity,
         ARRAY(SELECT p.id::text FROM certificate_requests p
               WHERE p.device_id = g.device_id AND p.purpose = g.purpose
                 AND p.user_identity IS NOT DISTINCT FROM g.user_identity AND p.status = 'pending'
               ORDER BY p.created_at, p.id) AS pending_ids,
         ARRAY(SELECT c.serial FROM certificates c
               WHERE c.device_id = g.device_id AND c.purpose = g.purpose
                 AND c.user_identity IS NOT DISTINCT FROM g.user_identity AND c.status = 'active'
                 AND c.superseded_at IS NULL AND c.not_after > now()
               ORDER BY c.created_at) AS active_serials
       FROM g JOIN devices d ON d.id = g.device_id
       ORDER BY d.serial, g.purpose`,
      [ids],
    )) as {
      serial: string;
      purpose: Purpose;
      user_identity: string | null;
      pending_ids: string[];
      active_serials: string[];
    }[];
    return rows.map((r) => ({
      serial: r.serial,
      purpose: r.purpose,
      userIdentity: r.user_identity,
      pendingRequestIds: r.pending_ids,
      activeCertificateSerials: r.active_serials,
    }));
  }
}
