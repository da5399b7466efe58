import type { FindingPerson } from '../finding-view';

/** One comment of a finding's thread as read. `author.id` is null when the user was deleted. */
export interface FindingComment {
  id: string;
  findingId: string;
  author: { id: string | null; email: string; displayName: string };
  body: string;
  createdAt: Date;
  editedAt: Date | null;
}

/** The author of a new comment. */
export type CommentAuthor = Pick<FindingPerson, 'id' | 'email'>;
