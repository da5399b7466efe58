import { Injectable } from '@nestjs/common';
import type { AccessContext } from '../../../app/access/access-context';
import { ProjectAccessService } from '../../projects/project-access.service';
import { FindingsApiError } from '../findings-api.errors';
import { FindingsQueryService, targetOf } from '../findings-query.service';
import type { FindingComment } from './finding-comment';
import { FindingCommentsRepository } from './finding-comments.repository';

const notFound = (): Error => new FindingsApiError('finding_not_found');

/**
 * A finding's discussion thread (docs/findings-service/findings-api.md#comments): readers of
 * the finding read it; analysts and admins of the project write; only the author edits; the
 * author or an administrator (project or global) deletes.
 */
@Injectable()
export class FindingCommentsService {
  constructor(
    private readonly findings: FindingsQueryService,
    private readonly comments: FindingCommentsRepository,
    private readonly projectAccess: ProjectAccessService,
  ) {}

  async list(
    access: AccessContext,
    findingId: string,
    page: { limit: number; after?: string },
  ): Promise<FindingComment[]> {
    await this.findings.get(access, findingId);
    if (page.after !== undefined && !(await this.comments.exists(findingId, page.after))) {
      throw new FindingsApiError('comment_not_found');
    }
    return this.comments.list(findingId, page.limit, page.after);
  }

  /** Users only (the route refuses keys) holding write_findings on the finding. */
  async add(access: AccessContext, findingId: string, body: string): Promise<FindingComment> {
    const finding = await this.findings.get(access, findingId);
    this.projectAccess.require(access, 'write_findings', targetOf(finding), notFound);
    return this.comments.add(findingId, author(access), body);
  }

  async edit(
    access: AccessContext,
    findingId: string,
    commentId: string,
    body: string,
  ): Promise<FindingComment> {
    const comment = await this.visibleComment(access, findingId, commentId);
    if (comment.author.id === null || comment.author.id !== author(access).id) {
      throw new FindingsApiError('access_denied');
    }
    const edited = await this.comments.edit(findingId, commentId, body);
    if (!edited) throw new FindingsApiError('comment_not_found');
    return edited;
  }

  async remove(access: AccessContext, findingId: string, commentId: string): Promise<void> {
    const comment = await this.visibleComment(access, findingId, commentId);
    const own = comment.author.id !== null && comment.author.id === author(access).id;
    if (!own) {
      const finding = await this.findings.get(access, findingId);
      if ((await this.projectAccess.roleOf(access, finding.projectId)) !== 'admin') {
        throw new FindingsApiError('access_denied');
      }
    }
    await this.comments.remove(findingId, commentId);
  }

  private async visibleComment(
    access: AccessContext,
    findingId: string,
    commentId: string,
  ): Promise<FindingComment> {
    await this.findings.get(access, findingId);
    const comment = await this.comments.find(findingId, commentId);
    if (!comment) throw new FindingsApiError('comment_not_found');
    return comment;
  }
}

function author(access: AccessContext): { id: string; email: string } {
  const p = access.principal;
  if (p.kind !== 'user') throw new FindingsApiError('access_denied');
  return { id: p.id, email: p.email };
}
