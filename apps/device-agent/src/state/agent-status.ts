import { AgentExit, ExitCode } from '../core/exit-codes';
import { StateFile, type StateDir } from './state-dir';

/** The documented states of the agent (docs/agent.md, "States"). */
export type AgentState =
  | 'key_generated'
  | 'pending_approval'
  | 'enrolled'
  | 'renewal_pending'
  | 'rejected'
  | 'unauthorized'
  | 'no_certificate'
  | 'revoked'
  | 'blocked';

/** `agent-state.json`: what the agent knows; no secret and no key in it. */
export interface AgentStatus {
  state: AgentState;
  server: string;
  serial: string;
  /** Where the key lives: `software` (key.pem) or `tpm` (tpm/). */
  key_storage?: 'software' | 'tpm';
  request_id?: string;
  request_status?: string;
  certificate_serial?: string;
  not_before?: string;
  not_after?: string;
  /** When renewal starts (2/3 of the lifetime after not_before). */
  renew_after?: string;
  bundle_version?: string;
  etag?: string;
  last_checkin_at?: string;
  renewal_request_id?: string;
  /** Since when the check-in answers say the device is blocked (state `blocked`). */
  blocked_since?: string;
  /** Why the agent is in a state it cannot leave alone (rejected, unauthorized, ...). */
  reason?: string;
  updated_at: string;
}

export function readStatus(dir: StateDir): AgentStatus | null {
  const text = dir.read(StateFile.status);
  if (text === null) return null;
  try {
    return JSON.parse(text) as AgentStatus;
  } catch {
    throw new AgentExit(ExitCode.state, `${dir.file(StateFile.status)} is damaged (not JSON)`);
  }
}

export function writeStatus(dir: StateDir, status: AgentStatus, now: Date): AgentStatus {
  const next = { ...status, updated_at: now.toISOString() };
  dir.write(StateFile.status, `${JSON.stringify(next, null, 2)}\n`);
  return next;
}

/** Renewal point: `not_before + 2/3 (not_after - not_before)`. */
export function renewAfter(notBefore: string, notAfter: string): string {
  const start = Date.parse(notBefore);
  const end = Date.parse(notAfter);
  return new Date(start + ((end - start) * 2) / 3).toISOString();
}
