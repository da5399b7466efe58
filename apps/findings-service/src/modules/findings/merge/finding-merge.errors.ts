import { FindingsError } from '../../../app/errors/findings-error';

export type FindingMergeErrorCode =
  | 'merge_into_self'
  | 'merge_products_differ'
  | 'finding_already_merged'
  | 'merge_member_has_members'
  | 'finding_not_merged';

/** Refusals of merge and unmerge (docs/findings-service/merge.md#errors). */
export class FindingMergeError extends FindingsError<FindingMergeErrorCode> {
  constructor(code: FindingMergeErrorCode, details?: Record<string, unknown>) {
    super(code, details);
  }
}
