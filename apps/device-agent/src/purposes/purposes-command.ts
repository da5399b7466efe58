import { resolve } from 'node:path';
import { ApiError } from '../api/api-errors';
import { CertsvcClient } from '../api/certsvc-client';
import type { AgentContext } from '../core/context';
import { AgentExit, ExitCode, type ExitCodeValue } from '../core/exit-codes';
import { withRetry } from '../core/retry';
import { readPublicKey } from '../ssh/ssh-command';
import { readStatus } from '../state/agent-status';
import { StateFile, type StateDir } from '../state/state-dir';
import {
  askKey,
  PURPOSES,
  readPurposeIndex,
  USER_PURPOSES,
  writePurposeIndex,
  type PurposeAsk,
} from './purpose-index';

export interface PurposesOptions {
  /** `list` or `request`. */
  readonly action: string | undefined;
  readonly purpose?: string;
  readonly user?: string;
  readonly upn?: string;
  readonly note?: string;
  readonly publicKeyFile?: string;
  /** Where the answer goes (stdout). */
  readonly print: (text: string) => void;
}

/**
 * `purposes list`: what the device may enroll for (`POST /enroll/purposes`) and what it asked
 * for. `purposes request <purpose>`: `POST /enroll/purpose-request`; the ask is recorded in
 * `<state>/purposes/index.json` and `run` gets the certificate once an administrator approved
 * (docs/agent.md, "Purposes the device asks for").
 */
export async function purposesCommand(
  ctx: AgentContext,
  state: StateDir,
  options: PurposesOptions,
): Promise<ExitCodeValue> {
  if (options.action !== 'list' && options.action !== 'request') {
    throw new AgentExit(ExitCode.usage, 'purposes needs `list` or `request <purpose>`');
  }
  if (options.action === 'request') checkRequest(options);
  // An ssh purpose's key is checked now (a private key is refused before anything is sent).
  if (options.action === 'request' && options.publicKeyFile) readPublicKey(options.publicKeyFile);
  const status = readStatus(state);
  const token = (state.read(StateFile.enrollmentToken) ?? '').trim();
  if (!status || !token) {
    throw new AgentExit(ExitCode.state, `no enrollment in ${state.path}: run \`enroll\` first`);
  }
  const client = new CertsvcClient(status.server);
  try {
    if (options.action === 'list') {
      const answer = await withRetry(ctx, 'purposes', () => client.purposes(status.serial, token));
      const asked = Object.values(readPurposeIndex(state));
      options.print(
        `${JSON.stringify({ serial: answer.serial, purposes: answer.purposes, asked })}\n`,
      );
      return ExitCode.ok;
    }
    const purpose = options.purpose as string;
    const answer = await withRetry(ctx, 'purpose request', () =>
      client.purposeRequest(status.serial, token, purpose, options.note),
    );
    const now = ctx.clock.now().toISOString();
    const index = readPurposeIndex(state);
    const ask: PurposeAsk = {
      purpose,
      ...(options.user ? { user: options.user } : {}),
      ...(options.upn ? { upn: options.upn } : {}),
      ...(options.note ? { note: options.note } : {}),
      ...(options.publicKeyFile ? { public_key_file: resolve(options.publicKeyFile) } : {}),
      ...(answer.request_id ? { purpose_request_id: answer.request_id } : {}),
      asked_at: now,
      status: answer.status === 'pending' ? 'pending' : 'allowed',
      updated_at: now,
    };
    const known = index[askKey(purpose, options.user)];
    // Asking again for what is already under way or installed changes nothing.
    if (!(known && answer.status === 'already_allowed' && known.status !== 'pending')) {
      index[askKey(purpose, options.user)] = ask;
    }
    writePurposeIndex(state, index);
    ctx.logger.info('purpose requested', {
      purpose,
      status: answer.status,
      purpose_request_id: answer.request_id,
    });
    options.print(`${JSON.stringify(answer)}\n`);
    return ExitCode.ok;
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    throw new AgentExit(
      ExitCode.refused,
      `the service refused: ${error.status} ${error.code}: ${error.message}`,
    );
  }
}

/** `purposes request` options that are wrong whatever the state: exit 2 before anything. */
export function checkRequest(
  options: Pick<PurposesOptions, 'purpose' | 'user' | 'upn' | 'publicKeyFile'>,
): void {
  const { purpose, user, upn } = options;
  if (!purpose) throw new AgentExit(ExitCode.usage, 'purposes request needs a purpose');
  if (!(PURPOSES as readonly string[]).includes(purpose)) {
    throw new AgentExit(ExitCode.usage, `unknown purpose "${purpose}" (${PURPOSES.join(', ')})`);
  }
  const forPerson = (USER_PURPOSES as readonly string[]).includes(purpose);
  if (forPerson && !user) {
    throw new AgentExit(ExitCode.usage, `--user is required for ${purpose} (the person)`);
  }
  if (!forPerson && (user || upn)) {
    throw new AgentExit(ExitCode.usage, `--user and --upn are for user_mtls and ad_logon only`);
  }
  if (purpose === 'ad_logon' && !upn) {
    throw new AgentExit(ExitCode.usage, '--upn is required for ad_logon');
  }
  if (options.publicKeyFile && purpose !== 'ssh') {
    throw new AgentExit(ExitCode.usage, '--public-key goes with the ssh purpose only');
  }
}
