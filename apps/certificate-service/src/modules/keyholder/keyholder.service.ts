import { Injectable } from '@nestjs/common';
import { PrincipalAliasesService } from '../principal-aliases/principal-aliases.service';
import { PolicySettingsService } from '../settings/policy-settings.service';
import type { SshRevocationEntity } from '../ssh-keys/ssh-revocation.entity';
import { SshRevocationFeed } from '../ssh-keys/ssh-revocation-feed.service';
import { mayRead, type KeyholderCaller } from './keyholder-access.guard';
import { KeyholderError } from './keyholder.errors';
import { KeyholderRepository, type ServedKey } from './keyholder.repository';

/** A page of the revocation feed and where to continue. */
export interface RevocationPage {
  items: SshRevocationEntity[];
  /** Pass as `after=` next time (the last id looked at, even when filtered out). */
  next: string;
}

/** What target servers ask: keys for a login, principals a certificate may use, revocations. */
@Injectable()
export class KeyholderService {
  constructor(
    private readonly repository: KeyholderRepository,
    private readonly policies: PolicySettingsService,
    private readonly aliases: PrincipalAliasesService,
    private readonly feed: SshRevocationFeed,
  ) {}

  async keysFor(caller: KeyholderCaller, login: string): Promise<ServedKey[]> {
    if (!mayRead(caller, login)) throw new KeyholderError('keyholder_principal_denied');
    const policy = (await this.policies.sshKeyPolicy()).value;
    const auto = policy.autoApprove && policy.autoApprovePrincipals.includes(login);
    return this.repository.activeKeysFor(login, auto);
  }

  /**
   * Principals an SSH certificate may still use: those it carries that its owner still holds
   * now (personal login, enabled aliases) and the caller's token may read; none when the
   * certificate is revoked or expired. With `login`, only that name (or nothing).
   */
  async principalsOf(
    caller: KeyholderCaller,
    serial: string,
    keyId: string | undefined,
    login: string | undefined,
    now = new Date(),
  ): Promise<string[]> {
    if (login !== undefined && !mayRead(caller, login)) {
      throw new KeyholderError('keyholder_principal_denied');
    }
    const certificate = await this.repository.certificate(serial);
    if (!certificate || (keyId !== undefined && certificate.keyId !== keyId)) {
      throw new KeyholderError('keyholder_certificate_not_found');
    }
    if (certificate.revoked || certificate.validBefore.getTime() <= now.getTime()) return [];
    const held = new Set(
      certificate.owner ? await this.aliases.principalsOf(certificate.owner) : [],
    );
    return certificate.principals.filter(
      (p) => held.has(p) && mayRead(caller, p) && (login === undefined || p === login),
    );
  }

  /** Revocations after the cursor, oldest first; a restricted token sees its logins only. */
  async revocations(
    caller: KeyholderCaller,
    after: string,
    limit: number,
  ): Promise<RevocationPage> {
    const rows = await this.feed.after(after, limit);
    const next = rows.length > 0 ? rows[rows.length - 1].id : after;
    const restricted = caller.token?.principals ?? null;
    const items =
      restricted === null
        ? rows
        : rows.filter((r) => r.principals.some((p) => restricted.includes(p)));
    return { items, next };
  }
}
