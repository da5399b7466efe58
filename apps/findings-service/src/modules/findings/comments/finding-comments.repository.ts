import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { CommentAuthor, FindingComment } from './finding-comment';

const COLUMNS = `c.id, c.finding_id, c.author_id, c.author_label, c.body, c.created_at, c.edited_at,
  u.email AS author_email, u.display_name AS author_display_name`;
const FROM = `finding_comments c LEFT JOIN users u ON u.id = c.author_id`;

/** The only writer of `finding_comments` (a finding's discussion thread). */
@Injectable()
export class FindingCommentsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Oldest first; `afterId` a comment of the finding (keyset on created_at, id). */
  async list(findingId: string, limit: number, afterId?: string): Promise<FindingComment[]> {
    const after =
      afterId === undefined
        ? ''
        : `AND (c.created_at, c.id) > (SELECT a.created_at, a.id FROM finding_comments a
             WHERE a.id = $3 AND a.finding_id = $1)`;
    const params: unknown[] = [findingId, limit];
    if (afterId !== undefined) params.push(afterId);
    const rows = (await this.dataSource.query(
      `SELECT ${COLUMNS} FROM ${FROM} WHERE c.finding_id = $1 ${after}
        ORDER BY c.created_at, c.id LIMIT $2`,
      params,
    )) as Record<string, unknown>[];
    return rows.map(toComment);
  }

  async exists(findingId: string, id: string): Promise<boolean> {
    const rows = (await this.dataSource.query(
      `SELECT 1 FROM finding_comments WHERE id = $1 AND finding_id = $2`,
      [id, findingId],
    )) as unknown[];
    return rows.length > 0;
  }

  async find(findingId: string, id: string): Promise<FindingComment | null> {
    const rows = (await this.dataSource.query(
      `SELECT ${COLUMNS} FROM ${FROM} WHERE c.id = $1 AND c.finding_id = $2`,
      [id, findingId],
    )) as Record<string, unknown>[];
    return rows[0] ? toComment(rows[0]) : null;
  }

  async add(findingId: string, author: CommentAuthor, body: string): Promise<FindingComment> {
    const [row] = (await this.dataSource.query(
      `INSERT INTO finding_comments (finding_id, author_id, author_label, body)
       VALUES ($1, $2, $3, $4) RETURNING id`,
      [findingId, author.id, author.email, body],
    )) as { id: string }[];
    const added = row ? await this.find(findingId, row.id) : null;
    if (!added) throw new Error('the inserted comment could not be read back');
    return added;
  }

  async edit(findingId: string, id: string, body: string): Promise<FindingComment | null> {
    await this.dataSource.query(
      `UPDATE finding_comments SET body = $3, edited_at = now() WHERE id = $1 AND finding_id = $2`,
      [id, findingId, body],
    );
    return this.find(findingId, id);
  }

  async remove(findingId: string, id: string): Promise<void> {
    await this.dataSource.query(`DELETE FROM finding_comments WHERE id = $1 AND finding_id = $2`, [
      id,
      findingId,
    ]);
  }
}

function toComment(r: Record<string, unknown>): FindingComment {
  const authorId = r['author_id'] === null ? null : String(r['author_id']);
  return {
    id: String(r['id']),
    findingId: String(r['finding_id']),
    author: {
      id: authorId,
      email: String(r['author_email'] ?? r['author_label']),
      displayName: String(r['author_display_name'] ?? ''),
    },
    body: String(r['body']),
    createdAt: r['created_at'] as Date,
    editedAt: (r['edited_at'] as Date | null) ?? null,
  };
}
