import { Injectable } from '@nestjs/common';
import type { AccessContext } from '../../app/access/access-context';
import { Clock } from '../../app/clock';
import { actorOf } from '../action-log/finding-action';
import { ScopeAccess } from './scope-access';
import { parseCandidates, ScopeEntryWriter } from './scope-entry-writer';
import type { ProposalStatus } from './scope.entities';
import { ScopeError } from './scope.errors';
import { ScopeRepository } from './scope.repository';
import { decodeCursor, encodeCursor, type Page, type ScopeProposalView } from './scope-views';

/** Most proposals of one project waiting for a decision. */
export const MAX_PENDING_PROPOSALS = 10_000;

/**
 * Scanners' proposals (docs/findings-service/scope.md#proposals): a scanner with
 * `upload_report` proposes an object; nothing changes in the perimeter until someone with
 * `manage_scope` confirms it (it becomes an include entry, subject to the overlap rule) or
 * rejects it (it stays rejected: proposing it again only counts, it does not reopen it).
 */
@Injectable()
export class ScopeProposalsService {
  constructor(
    private readonly repository: ScopeRepository,
    private readonly access: ScopeAccess,
    private readonly writer: ScopeEntryWriter,
    private readonly clock: Clock,
  ) {}

  async propose(
    access: AccessContext,
    projectId: string,
    input: { value: string; comment: string | null },
  ): Promise<{ proposal: ScopeProposalView; created: boolean }> {
    await this.access.require(access, projectId, 'upload_report');
    const [candidate] = parseCandidates([
      { mode: 'include', value: input.value, comment: null, originRef: null, field: 'value' },
    ]);
    if ((await this.repository.countPendingProposals(projectId)) >= MAX_PENDING_PROPOSALS) {
      throw new ScopeError('scope_proposals_limit', { max: MAX_PENDING_PROPOSALS });
    }
    return this.repository.propose(
      projectId,
      { value: candidate.entry.value, kind: candidate.entry.kind, comment: input.comment },
      actorOf(access),
      this.clock.now(),
    );
  }

  async list(
    access: AccessContext,
    projectId: string,
    status: ProposalStatus | 'all',
    page: { cursor?: string; limit: number },
  ): Promise<Page<ScopeProposalView>> {
    await this.access.member(access, projectId);
    const list = `proposals:${status}`;
    const cursor = page.cursor === undefined ? undefined : decodeCursor(list, page.cursor);
    if (page.cursor !== undefined && !cursor) throw new ScopeError('scope_cursor_invalid');
    const rows = await this.repository.listProposals(
      projectId,
      status === 'all' ? undefined : status,
      cursor,
      page.limit + 1,
    );
    const items = rows.slice(0, page.limit);
    const last = items[items.length - 1];
    return {
      items,
      nextCursor:
        rows.length > page.limit && last
          ? encodeCursor(list, { at: last.cursorAt, id: last.id })
          : null,
    };
  }

  /** Confirms a pending proposal: an include entry (origin `proposal`) in the same transaction. */
  async confirm(
    access: AccessContext,
    projectId: string,
    proposalId: string,
    comment: string | null,
  ): Promise<ScopeProposalView> {
    await this.access.require(access, projectId, 'manage_scope');
    const by = actorOf(access);
    return this.repository.withPerimeter(projectId, async (tx) => {
      const proposal = await tx.lockedProposal(proposalId);
      if (!proposal) throw new ScopeError('scope_proposal_not_found');
      if (proposal.status !== 'pending') {
        throw new ScopeError('scope_proposal_decided', { status: proposal.status });
      }
      const at = this.clock.now();
      const candidates = parseCandidates([
        {
          mode: 'include',
          value: proposal.value,
          comment: comment ?? proposal.comment,
          originRef: proposal.id,
          field: 'value',
        },
      ]);
      const { added } = await this.writer.addIn(tx, candidates, {
        origin: 'proposal',
        by,
        at,
        onConflict: 'refuse',
      });
      return tx.decideProposal(proposal.id, {
        status: 'confirmed',
        by,
        at,
        comment,
        entryId: added[0]?.id ?? null,
      });
    });
  }

  async reject(
    access: AccessContext,
    projectId: string,
    proposalId: string,
    comment: string | null,
  ): Promise<ScopeProposalView> {
    await this.access.require(access, projectId, 'manage_scope');
    const by = actorOf(access);
    return this.repository.withPerimeter(projectId, async (tx) => {
      const proposal = await tx.lockedProposal(proposalId);
      if (!proposal) throw new ScopeError('scope_proposal_not_found');
      if (proposal.status !== 'pending') {
        throw new ScopeError('scope_proposal_decided', { status: proposal.status });
      }
      return tx.decideProposal(proposal.id, {
        status: 'rejected',
        by,
        at: this.clock.now(),
        comment,
        entryId: null,
      });
    });
  }
}
