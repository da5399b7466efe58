export type ApprovalRowStatus = 'issued' | 'ca_pending' | 'error';

/** One row of the bulk approval answer. */
export interface ApprovalRow {
  requestId: string;
  status: ApprovalRowStatus;
  serial?: string;
  error?: string;
}
