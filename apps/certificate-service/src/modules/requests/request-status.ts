/**
 * Status of a certificate request.
 *
 * - `pending`: awaiting a decision (every new request starts here).
 * - `approved`: decided, issuance under way (transient).
 * - `ca_pending`: an asynchronous issuer (SCEP) has not answered yet.
 * - `issued`: a certificate exists for the request.
 * - `rejected`: refused by a person.
 * - `failed`: issuance failed for good.
 * - `superseded`: a newer request of the same device, purpose (and user) replaced it while
 *   it was still pending.
 * - `cancelled`: withdrawn.
 *
 * Terminal statuses never change again and can never be approved.
 */
export const REQUEST_STATUSES = [
  'pending',
  'approved',
  'ca_pending',
  'issued',
  'rejected',
  'failed',
  'superseded',
  'cancelled',
] as const;
export type RequestStatus = (typeof REQUEST_STATUSES)[number];

export const TERMINAL_REQUEST_STATUSES: readonly RequestStatus[] = [
  'issued',
  'rejected',
  'failed',
  'superseded',
  'cancelled',
];

/** Statuses in which a certificate may still appear (the agent keeps polling). */
export const IN_PROGRESS_REQUEST_STATUSES: readonly RequestStatus[] = [
  'pending',
  'approved',
  'ca_pending',
];

export function isTerminalStatus(status: RequestStatus): boolean {
  return TERMINAL_REQUEST_STATUSES.includes(status);
}

export function isRequestStatus(value: string): value is RequestStatus {
  return (REQUEST_STATUSES as readonly string[]).includes(value);
}
