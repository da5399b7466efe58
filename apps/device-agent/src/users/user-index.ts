import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { AgentExit, ExitCode } from '../core/exit-codes';
import { StateDir } from '../state/state-dir';

/** What the agent did for one issuance directive (`users/index.json`, keyed by directive id). */
export interface UserRequestRecord {
  directive_id: string;
  purpose: string;
  user: string;
  upn?: string | null;
  /** The request `POST /enroll/user` created (its key and secret in the slot directory). */
  request_id?: string;
  /** The outcome to report, and once the service took it, `reported`. */
  outcome?: 'done' | 'failed';
  message?: string;
  reported?: 'done' | 'failed' | 'cancelled';
  request_status?: string;
  certificate_serial?: string;
  not_before?: string;
  not_after?: string;
  /** A renewal in progress (its key, id and secret as `renewal-*` files in the slot). */
  renewal_request_id?: string;
}

export type UserIndex = Record<string, UserRequestRecord>;

/** `<state>/users/`: the user half's state (0700, files 0600). */
export function usersDir(state: StateDir): StateDir {
  const dir = new StateDir(join(state.path, 'users'));
  dir.ensure();
  return dir;
}

/** The directory of one person's purpose: `<purpose>-<16 hex of SHA-256(user)>`. */
export function slotDir(users: StateDir, record: UserRequestRecord): StateDir {
  const hash = createHash('sha256').update(record.user).digest('hex').slice(0, 16);
  const dir = new StateDir(join(users.path, `${record.purpose}-${hash}`));
  dir.ensure();
  return dir;
}

export function readIndex(users: StateDir): UserIndex {
  const text = users.read('index.json');
  if (text === null) return {};
  try {
    return JSON.parse(text) as UserIndex;
  } catch {
    throw new AgentExit(ExitCode.state, `${users.file('index.json')} is damaged (not JSON)`);
  }
}

export function writeIndex(users: StateDir, index: UserIndex): void {
  users.write('index.json', `${JSON.stringify(index, null, 2)}\n`);
}
