import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { SshKeyEntity, type SshKeyState } from './ssh-key.entity';

export type NewSshKey = Omit<SshKeyEntity, 'createdAt' | 'updatedAt'>;

export interface SshKeyFilter {
  state?: SshKeyState;
  /** Exact device serial. */
  serial?: string;
  /** Exact owner (lower-cased email). */
  owner?: string;
  keyType?: string;
  fingerprint?: string;
}

/** A key row with the serial of its device (admin lists). */
export interface SshKeyRow {
  key: SshKeyEntity;
  serial: string | null;
}

/** Fields set by a state change. */
export type SshKeyTransition = Partial<
  Pick<
    SshKeyEntity,
    | 'state'
    | 'approval'
    | 'owner'
    | 'bindingVerdict'
    | 'bindingDetail'
    | 'approvedAt'
    | 'approvedBy'
    | 'rejectedAt'
    | 'rejectedBy'
    | 'revokedAt'
    | 'revokedBy'
    | 'statusReason'
  >
>;

/** The revoked raw keys, as the KRL needs them. */
export interface RevokedSshKey {
  id: string;
  keyType: string;
  publicKey: Buffer;
  fingerprint: string;
  revokedAt: Date;
}

@Injectable()
export class SshKeysRepository {
  constructor(private readonly dataSource: DataSource) {}

  private repo(em?: EntityManager) {
    return (em ?? this.dataSource.manager).getRepository(SshKeyEntity);
  }

  transaction<T>(work: (em: EntityManager) => Promise<T>): Promise<T> {
    return this.dataSource.transaction(work);
  }

  /** Inserts unless a live (pending/active) row holds the fingerprint; returns null then. */
  async insert(key: NewSshKey): Promise<SshKeyEntity | null> {
    const result = await this.repo()
      .createQueryBuilder()
      .insert()
      .values(key)
      .orIgnore()
      .returning('id')
      .execute();
    if (result.raw.length === 0) return null;
    return this.repo().findOneByOrFail({ id: key.id });
  }

  findById(id: string, em?: EntityManager): Promise<SshKeyEntity | null> {
    return this.repo(em).findOneBy({ id });
  }

  /** The pending or active row of a fingerprint. */
  findLive(fingerprint: string): Promise<SshKeyEntity | null> {
    return this.repo()
      .createQueryBuilder('k')
      .where('k.fingerprint = :fingerprint', { fingerprint })
      .andWhere(`k.state IN ('pending','active')`)
      .getOne();
  }

  /** Whether the key was ever revoked (it stays in the KRL: never registered again). */
  async isRevoked(fingerprint: string): Promise<boolean> {
    const count = await this.repo().countBy({ fingerprint, state: 'revoked' });
    return count > 0;
  }

  byDevice(deviceId: string): Promise<SshKeyEntity[]> {
    return this.repo().find({ where: { deviceId }, order: { createdAt: 'ASC', id: 'ASC' } });
  }

  async page(
    filter: SshKeyFilter,
    limit: number,
    offset: number,
  ): Promise<{ items: SshKeyRow[]; total: number }> {
    const query = this.repo()
      .createQueryBuilder('k')
      .leftJoin('devices', 'd', 'd.id = k.device_id')
      .addSelect('d.serial', 'device_serial');
    if (filter.state) query.andWhere('k.state = :state', { state: filter.state });
    if (filter.serial) query.andWhere('d.serial = :serial', { serial: filter.serial });
    if (filter.owner) query.andWhere('k.owner = :owner', { owner: filter.owner });
    if (filter.keyType) query.andWhere('k.key_type = :keyType', { keyType: filter.keyType });
    if (filter.fingerprint) {
      query.andWhere('k.fingerprint = :fingerprint', { fingerprint: filter.fingerprint });
    }
    const total = await query.getCount();
    const { entities, raw } = await query
      .orderBy('k.created_at', 'DESC')
      .addOrderBy('k.id', 'ASC')
      .limit(limit)
      .offset(offset)
      .getRawAndEntities<{ device_serial: string | null }>();
    return {
      items: entities.map((key, i) => ({ key, serial: raw[i]?.device_serial ?? null })),
      total,
    };
  }

  /**
   * Moves a key from `from` to the state in `changes` if it is still in one of `from`
   * (compare-and-set: two concurrent decisions cannot both win). Null when it was not.
   */
  async transition(
    em: EntityManager,
    id: string,
    from: readonly SshKeyState[],
    changes: SshKeyTransition,
  ): Promise<SshKeyEntity | null> {
    const result = await this.repo(em)
      .createQueryBuilder()
      .update()
      .set(changes)
      .where('id = :id', { id })
      .andWhere('state IN (:...from)', { from: [...from] })
      .execute();
    if ((result.affected ?? 0) === 0) return null;
    return this.repo(em).findOneByOrFail({ id });
  }

  /** Revokes every pending or active key of a device in one statement; returns the revoked rows. */
  async revokeAllOfDevice(
    em: EntityManager,
    deviceId: string,
    at: Date,
    by: string,
    reason: string,
  ): Promise<SshKeyEntity[]> {
    // An UPDATE through EntityManager.query answers [rows, affected count].
    const [rows] = await em.query<[Record<string, unknown>[], number]>(
      `UPDATE ssh_keys SET
         state = CASE WHEN state = 'active' THEN 'revoked' ELSE 'rejected' END,
         revoked_at = CASE WHEN state = 'active' THEN $2::timestamptz ELSE revoked_at END,
         revoked_by = CASE WHEN state = 'active' THEN $3 ELSE revoked_by END,
         rejected_at = CASE WHEN state = 'pending' THEN $2::timestamptz ELSE rejected_at END,
         rejected_by = CASE WHEN state = 'pending' THEN $3 ELSE rejected_by END,
         status_reason = $4, updated_at = now()
       WHERE device_id = $1 AND state IN ('pending','active')
       RETURNING id`,
      [deviceId, at, by, reason],
    );
    const ids = rows.map((r) => String(r.id));
    if (ids.length === 0) return [];
    return this.repo(em).createQueryBuilder('k').where('k.id IN (:...ids)', { ids }).getMany();
  }

  /** Every revoked raw key (for the KRL), oldest revocation first. */
  async revoked(): Promise<RevokedSshKey[]> {
    const rows = await this.repo()
      .createQueryBuilder('k')
      .select(['k.id', 'k.keyType', 'k.publicKey', 'k.fingerprint', 'k.revokedAt'])
      .where(`k.state = 'revoked'`)
      .orderBy('k.revoked_at', 'ASC')
      .addOrderBy('k.id', 'ASC')
      .getMany();
    return rows.map((k) => ({
      id: k.id,
      keyType: k.keyType,
      publicKey: k.publicKey,
      fingerprint: k.fingerprint,
      revokedAt: k.revokedAt ?? k.updatedAt,
    }));
  }
}
