import { join } from 'node:path';
import { AgentExit, ExitCode } from '../core/exit-codes';
import { StateDir } from '../state/state-dir';

/** Purposes whose certificate is for a person on the device (`POST /enroll/user`). */
export const USER_PURPOSES = ['user_mtls', 'ad_logon'] as const;
/** Every purpose of the specification. */
export const PURPOSES = ['wifi', 'user_mtls', 'ad_logon', 'ssh', 'k8s', 'vpn'] as const;

/**
 * One purpose this device asked for (`purposes request`), in `<state>/purposes/index.json`
 * keyed by `<purpose>` (or `<purpose>:<user>` for a person's purpose).
 */
export interface PurposeAsk {
  purpose: string;
  user?: string;
  upn?: string;
  note?: string;
  /** The public key file for `ssh` (`--public-key`), when given. */
  public_key_file?: string;
  /** The service's purpose request (absent when it answered `already_allowed`). */
  purpose_request_id?: string;
  asked_at: string;
  /**
   * `pending` (waiting for the administrator's decision), `allowed` (the purpose is in
   * `POST /enroll/purposes`: the certificate step follows), `requested` (a certificate request
   * was sent), `installed` (the certificate is in place), `unsupported` (the service has no
   * device enrollment for this purpose), `failed` (the service refused the certificate request).
   */
  status: 'pending' | 'allowed' | 'requested' | 'installed' | 'unsupported' | 'failed';
  /** Where the certificate is (or will be): a state file or a user slot. */
  certificate?: string;
  message?: string;
  updated_at: string;
}

export type PurposeIndex = Record<string, PurposeAsk>;

export function askKey(purpose: string, user?: string): string {
  return user ? `${purpose}:${user}` : purpose;
}

/** `<state>/purposes/` (0700, files 0600). */
export function purposesDir(state: StateDir): StateDir {
  const dir = new StateDir(join(state.path, 'purposes'));
  dir.ensure();
  return dir;
}

export function readPurposeIndex(state: StateDir): PurposeIndex {
  const text = state.read('purposes/index.json');
  if (text === null) return {};
  try {
    return JSON.parse(text) as PurposeIndex;
  } catch {
    throw new AgentExit(
      ExitCode.state,
      `${state.file('purposes/index.json')} is damaged (not JSON)`,
    );
  }
}

export function writePurposeIndex(state: StateDir, index: PurposeIndex): void {
  purposesDir(state).write('index.json', `${JSON.stringify(index, null, 2)}\n`);
}
