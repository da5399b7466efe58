import type { CertsvcClient } from '../api/certsvc-client';
import type { AgentContext } from '../core/context';
import { AgentExit, ExitCode } from '../core/exit-codes';
import { readPublicKey } from '../ssh/ssh-command';
import { certificateFileOf, readSshRecord, sendSshRequest, sshDir } from '../ssh/ssh-install';
import { StateFile, type StateDir } from '../state/state-dir';
import { enrollForUser } from '../users/directives';
import {
  readIndex,
  slotDir,
  usersDir,
  writeIndex,
  type UserRequestRecord,
} from '../users/user-index';
import {
  readPurposeIndex,
  USER_PURPOSES,
  writePurposeIndex,
  type PurposeAsk,
} from './purpose-index';

export interface PurposeFacts {
  readonly serial: string;
  readonly enrollmentToken: string;
}

/**
 * The `run` pass over the purposes this device asked for (docs/agent.md, "Purposes the device
 * asks for"): a `pending` ask whose purpose now appears in `POST /enroll/purposes` (an
 * administrator approved it) gets its certificate requested the same pass — a person's
 * purpose (`user_mtls`, `ad_logon`) through `POST /enroll/user` into the user half's slot
 * (collected, checked in and renewed like a directive's), `ssh` through `POST /enroll/ssh` with
 * the recorded public key, `wifi` is the machine certificate itself. A later pass marks the ask
 * `installed` once the certificate is in place. Each change is written before the next step.
 */
export async function pursuePurposes(
  ctx: AgentContext,
  state: StateDir,
  client: CertsvcClient,
  facts: PurposeFacts,
  effective: readonly string[],
): Promise<void> {
  if (!state.has('purposes/index.json')) return;
  const index = readPurposeIndex(state);
  const save = () => writePurposeIndex(state, index);
  for (const ask of Object.values(index)) {
    if (ask.status === 'pending' && effective.includes(ask.purpose)) {
      update(ctx, ask, 'allowed', 'the purpose was approved');
      save();
    }
    if (ask.status === 'allowed') {
      await requestCertificate(ctx, state, client, facts, ask);
      save();
    }
    if (ask.status === 'requested' && installed(state, ask)) {
      update(ctx, ask, 'installed', `certificate in ${ask.certificate}`);
      save();
    }
  }
}

async function requestCertificate(
  ctx: AgentContext,
  state: StateDir,
  client: CertsvcClient,
  facts: PurposeFacts,
  ask: PurposeAsk,
): Promise<void> {
  if (ask.purpose === 'wifi') {
    ask.certificate = state.file(StateFile.certificate);
    update(ctx, ask, 'installed', 'the machine certificate serves wifi');
    return;
  }
  if ((USER_PURPOSES as readonly string[]).includes(ask.purpose) && ask.user) {
    await enrollPerson(ctx, state, client, facts, ask);
    return;
  }
  if (ask.purpose === 'ssh') {
    if (!ask.public_key_file) {
      const hint = 'run `certsvc-agent ssh --public-key FILE.pub` for the certificate';
      if (ask.message !== hint) update(ctx, ask, 'allowed', hint); // said once
      return;
    }
    try {
      const publicKey = readPublicKey(ask.public_key_file);
      await sendSshRequest(ctx, sshDir(state), client, {
        serial: facts.serial,
        enrollmentToken: facts.enrollmentToken,
        publicKey,
        publicKeyFile: ask.public_key_file,
      });
      ask.certificate = certificateFileOf(ask.public_key_file);
      update(ctx, ask, 'requested', 'SSH request sent, awaiting approval');
    } catch (error) {
      if (error instanceof AgentExit && error.code === ExitCode.unreachable) throw error;
      update(ctx, ask, 'failed', (error as Error).message);
    }
    return;
  }
  update(
    ctx,
    ask,
    'unsupported',
    `the certificate service has no device enrollment for ${ask.purpose} (allowed, no certificate to fetch)`,
  );
}

/** A person's purpose: the user half's slot, shared with a directive for the same person. */
async function enrollPerson(
  ctx: AgentContext,
  state: StateDir,
  client: CertsvcClient,
  facts: PurposeFacts,
  ask: PurposeAsk,
): Promise<void> {
  const users = usersDir(state);
  const index = readIndex(users);
  const existing = Object.values(index).find(
    (r) => r.purpose === ask.purpose && r.user === ask.user && r.request_id,
  );
  const record: UserRequestRecord = existing ?? {
    directive_id: `purpose:${ask.purpose}:${ask.user}`,
    purpose: ask.purpose,
    user: ask.user as string,
    upn: ask.upn ?? null,
  };
  if (!existing) {
    await enrollForUser(ctx, state, client, { ...facts }, record);
    index[record.directive_id] = record;
    writeIndex(users, index);
  }
  if (record.outcome === 'failed') {
    update(ctx, ask, 'failed', record.message ?? 'refused');
    return;
  }
  ask.certificate = slotDir(users, record).file('certificate.pem');
  update(ctx, ask, 'requested', `request ${record.request_id} sent, awaiting approval`);
}

function installed(state: StateDir, ask: PurposeAsk): boolean {
  if (ask.purpose === 'ssh') {
    const record = state.has('ssh/certificate.json') ? readSshRecord(sshDir(state)) : null;
    return !!record && record.file === ask.certificate && !state.has('ssh/request-id');
  }
  if (!state.has('users/index.json')) return false;
  return Object.values(readIndex(usersDir(state))).some(
    (r) => r.purpose === ask.purpose && r.user === ask.user && !!r.certificate_serial,
  );
}

function update(ctx: AgentContext, ask: PurposeAsk, status: PurposeAsk['status'], message: string) {
  ask.status = status;
  ask.message = message;
  ask.updated_at = ctx.clock.now().toISOString();
  const log = status === 'failed' ? ctx.logger.warn : ctx.logger.info;
  log.call(ctx.logger, `purpose ${status}`, {
    purpose: ask.purpose,
    user: ask.user,
    message,
  });
}
