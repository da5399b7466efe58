/** Purposes a directive can address to a person: the user purposes of `POST /enroll/user`. */
export const DIRECTIVE_PURPOSES = ['user_mtls', 'ad_logon'] as const;
export type DirectivePurpose = (typeof DIRECTIVE_PURPOSES)[number];

/**
 * `pending` → `delivered` (a check-in answer carried it) → `done` | `failed` (the agent's
 * report); `pending` or `delivered` → `cancelled` (an administrator).
 */
export const DIRECTIVE_STATES = ['pending', 'delivered', 'done', 'failed', 'cancelled'] as const;
export type DirectiveState = (typeof DIRECTIVE_STATES)[number];

export const OPEN_DIRECTIVE_STATES: readonly DirectiveState[] = ['pending', 'delivered'];

export const DIRECTIVE_OUTCOMES = ['done', 'failed'] as const;
export type DirectiveOutcome = (typeof DIRECTIVE_OUTCOMES)[number];

export const DIRECTIVE_MESSAGE_MAX_LENGTH = 1000;
