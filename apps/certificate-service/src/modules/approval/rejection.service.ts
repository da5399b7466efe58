import { Injectable } from '@nestjs/common';
import { AuditService } from '../audit/audit.service';
import { actorLabel, type Actor } from '../../app/access/actor';
import { ApprovalRepository } from './approval.repository';

export interface RejectionRow {
  requestId: string;
  status: 'rejected' | 'error';
  error?: string;
}

/** `POST /requests/reject` (cert-admin): pending requests become `rejected`; each is audited. */
@Injectable()
export class RejectionService {
  constructor(
    private readonly approvals: ApprovalRepository,
    private readonly audit: AuditService,
  ) {}

  async reject(
    actor: Actor,
    requestIds: readonly string[],
    reason: string | null,
  ): Promise<RejectionRow[]> {
    const ids = [...new Set(requestIds.map((id) => id.toLowerCase()))];
    const rejected = await this.approvals.rejectPending(ids, reason, actorLabel(actor), new Date());
    const known = rejected.size === ids.length ? new Map() : await this.approvals.statuses(ids);
    const rows: RejectionRow[] = ids.map((requestId) =>
      rejected.has(requestId)
        ? { requestId, status: 'rejected' }
        : {
            requestId,
            status: 'error',
            error: known.has(requestId) ? 'request_not_pending' : 'request_not_found',
          },
    );
    await this.audit.recordMany(
      [...rejected].map((requestId) => ({
        action: 'request.reject' as const,
        actor,
        target: requestId,
        details: reason ? { reason } : {},
      })),
    );
    return rows;
  }
}
