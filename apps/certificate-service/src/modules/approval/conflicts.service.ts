import { Injectable } from '@nestjs/common';
import type { Purpose } from '../../app/domain/purposes';
import { ApprovalRepository } from './approval.repository';

export type ConflictKind = 'multiple_pending' | 'active_certificate';

export interface SerialConflict {
  serial: string;
  purpose: Purpose;
  userIdentity: string | null;
  kinds: ConflictKind[];
  pendingRequestIds: string[];
  activeCertificateSerials: string[];
}

/**
 * `POST /requests/check-conflicts`: before a bulk approval, the device+purpose(+user) groups
 * of the given pending requests that have several pending requests (approving all issues
 * several certificates, the newest supersedes the others) or already hold a current
 * certificate (approval is a renewal that supersedes it).
 */
@Injectable()
export class ConflictsService {
  constructor(private readonly approvals: ApprovalRepository) {}

  async check(requestIds: readonly string[]): Promise<SerialConflict[]> {
    const ids = [...new Set(requestIds.map((id) => id.toLowerCase()))];
    const groups = await this.approvals.conflictGroups(ids);
    const conflicts: SerialConflict[] = [];
    for (const g of groups) {
      const kinds: ConflictKind[] = [];
      if (g.pendingRequestIds.length > 1) kinds.push('multiple_pending');
      if (g.activeCertificateSerials.length > 0) kinds.push('active_certificate');
      if (kinds.length > 0) conflicts.push({ ...g, kinds });
    }
    return conflicts;
  }
}
