import { Inject, Injectable } from '@nestjs/common';
import { randomBytes, randomUUID } from 'node:crypto';
import { SealedBox } from '@platform/auth';
import type { AccessContext } from '../../app/access/access-context';
import { Clock } from '../../app/clock';
import { FINDINGS_CONFIG } from '../../app/config/config.tokens';
import type { FindingsConfig } from '../../app/config/findings-config';
import { ProjectsError } from '../projects/projects.errors';
import type { ScannerCallbackKeyEntity } from './scanner-callback-key.entity';
import {
  ScannerCallbackKeysRepository,
  type NewCallbackKey,
} from './scanner-callback-keys.repository';
import { ScannerCallbacksError } from './scanner-callbacks.errors';

/** Purpose of the sealed callback-key secrets (a key of its own derived from the secrets key). */
export const CALLBACK_KEY_PURPOSE = 'scanner-callback-keys';

export type CallbackKeyState = 'active' | 'rotating' | 'expired' | 'retired';

/** A key as the admin routes show it; `secret` only in the answer that created it. */
export interface CallbackKeyView {
  key: ScannerCallbackKeyEntity;
  state: CallbackKeyState;
  secret?: string;
}

/**
 * The scanners' callback keys (administrators): created with a secret shown once, rotated with
 * a window in which the old and the new key are both valid, retired at once when leaked.
 */
@Injectable()
export class ScannerCallbackKeysService {
  private readonly box: SealedBox;

  constructor(
    @Inject(FINDINGS_CONFIG) private readonly config: FindingsConfig,
    private readonly keys: ScannerCallbackKeysRepository,
    private readonly clock: Clock,
  ) {
    this.box = new SealedBox(config.autoClosure.secretsKey, CALLBACK_KEY_PURPOSE);
  }

  async list(): Promise<CallbackKeyView[]> {
    const now = this.clock.now();
    return (await this.keys.list()).map((key) => ({ key, state: keyState(key, now) }));
  }

  async create(
    access: AccessContext,
    name: string,
    projectId: string | null,
  ): Promise<CallbackKeyView> {
    const { key, secret } = this.newKey(access, name, projectId);
    try {
      const stored = await this.keys.insert(key, this.clock.now());
      return { key: stored, state: 'active', secret };
    } catch (error) {
      if ((error as { code?: string }).code === '23503') {
        throw new ProjectsError('project_not_found');
      }
      throw error;
    }
  }

  /** A successor with the same name and project; the old key stays valid for the window. */
  async rotate(access: AccessContext, id: string, windowHours?: number): Promise<CallbackKeyView> {
    const old = await this.keys.findById(id);
    if (!old) throw new ScannerCallbacksError('callback_key_not_found', { id });
    const now = this.clock.now();
    const hours = windowHours ?? this.config.autoClosure.rotationWindowHours;
    const { key, secret } = this.newKey(access, old.name, old.projectId);
    const stored = await this.keys.rotate(
      id,
      key,
      new Date(now.getTime() + hours * 3_600_000),
      now,
    );
    if (!stored) throw new ScannerCallbacksError('callback_key_not_rotatable', { id });
    return { key: stored, state: 'active', secret };
  }

  async retire(id: string): Promise<void> {
    const key = await this.keys.findById(id);
    if (!key) throw new ScannerCallbacksError('callback_key_not_found', { id });
    await this.keys.retire(id, this.clock.now());
  }

  private newKey(
    access: AccessContext,
    name: string,
    projectId: string | null,
  ): { key: NewCallbackKey; secret: string } {
    const secret = `scs_${randomBytes(32).toString('base64url')}`;
    return {
      secret,
      key: {
        id: randomUUID(),
        keyId: `sck_${randomBytes(8).toString('hex')}`,
        name,
        projectId,
        secretSealed: this.box.seal(secret),
        createdById: access.principal.kind === 'user' ? access.principal.id : null,
      },
    };
  }
}

export function keyState(key: ScannerCallbackKeyEntity, now: Date): CallbackKeyState {
  if (key.retiredAt) return 'retired';
  if (key.expiresAt && key.expiresAt.getTime() <= now.getTime()) return 'expired';
  return key.expiresAt ? 'rotating' : 'active';
}
