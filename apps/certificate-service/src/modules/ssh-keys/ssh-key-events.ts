import { Injectable } from '@nestjs/common';

/** What listeners learn after raw keys were revoked (the transaction has committed). */
export interface SshKeysRevoked {
  keyIds: readonly string[];
}

export type SshKeysRevokedListener = (event: SshKeysRevoked) => void | Promise<void>;

/**
 * In-process notice that raw keys were revoked, so modules above the registry (the KRL cache of
 * `modules/ssh`, wired by `modules/keyholder`) can react without the registry importing them
 * (which would be an import cycle: the KRL reads the registry). A listener that throws is
 * reported to the caller's logger and never undoes the revocation.
 */
@Injectable()
export class SshKeyEvents {
  private readonly listeners: SshKeysRevokedListener[] = [];

  onRevoked(listener: SshKeysRevokedListener): void {
    this.listeners.push(listener);
  }

  /** Calls every listener; returns the errors they threw (empty when all went well). */
  async revoked(event: SshKeysRevoked): Promise<unknown[]> {
    const errors: unknown[] = [];
    for (const listener of this.listeners) {
      try {
        await listener(event);
      } catch (error) {
        errors.push(error);
      }
    }
    return errors;
  }
}
