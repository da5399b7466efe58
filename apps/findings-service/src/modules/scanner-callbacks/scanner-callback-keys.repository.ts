import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import type { ScannerCallbackKeyEntity } from './scanner-callback-key.entity';

const COLUMNS = `id, key_id AS "keyId", name, project_id AS "projectId",
  secret_sealed AS "secretSealed", created_by_id AS "createdById", created_at AS "createdAt",
  expires_at AS "expiresAt", retired_at AS "retiredAt", replaced_by AS "replacedBy",
  last_used_at AS "lastUsedAt"`;

export interface NewCallbackKey {
  id: string;
  keyId: string;
  name: string;
  projectId: string | null;
  secretSealed: string;
  createdById: string | null;
}

/** `scanner_callback_keys`: only this module writes it. */
@Injectable()
export class ScannerCallbackKeysRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async list(): Promise<ScannerCallbackKeyEntity[]> {
    return (await this.dataSource.query(
      `SELECT ${COLUMNS} FROM scanner_callback_keys ORDER BY created_at DESC, id`,
    )) as ScannerCallbackKeyEntity[];
  }

  async findById(id: string): Promise<ScannerCallbackKeyEntity | undefined> {
    const rows = (await this.dataSource.query(
      `SELECT ${COLUMNS} FROM scanner_callback_keys WHERE id = $1`,
      [id],
    )) as ScannerCallbackKeyEntity[];
    return rows[0];
  }

  async findByKeyId(keyId: string): Promise<ScannerCallbackKeyEntity | undefined> {
    const rows = (await this.dataSource.query(
      `SELECT ${COLUMNS} FROM scanner_callback_keys WHERE key_id = $1`,
      [keyId],
    )) as ScannerCallbackKeyEntity[];
    return rows[0];
  }

  async insert(key: NewCallbackKey, now: Date): Promise<ScannerCallbackKeyEntity> {
    const rows = (await this.dataSource.query(
      `INSERT INTO scanner_callback_keys
         (id, key_id, name, project_id, secret_sealed, created_by_id, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING ${COLUMNS}`,
      [key.id, key.keyId, key.name, key.projectId, key.secretSealed, key.createdById, now],
    )) as ScannerCallbackKeyEntity[];
    return rows[0] as ScannerCallbackKeyEntity;
  }

  /**
   * A rotation in one transaction: the successor is inserted and the old key (still usable,
   * not yet replaced) gets the end of the window. Undefined when the old key cannot rotate.
   */
  async rotate(
    oldId: string,
    successor: NewCallbackKey,
    windowEndsAt: Date,
    now: Date,
  ): Promise<ScannerCallbackKeyEntity | undefined> {
    return this.dataSource.transaction(async (manager) => {
      const old = (await manager.query(
        `SELECT id FROM scanner_callback_keys WHERE id = $1 AND retired_at IS NULL
            AND replaced_by IS NULL AND (expires_at IS NULL OR expires_at > $2) FOR UPDATE`,
        [oldId, now],
      )) as unknown[];
      if (old.length === 0) return undefined;
      const rows = (await manager.query(
        `INSERT INTO scanner_callback_keys
           (id, key_id, name, project_id, secret_sealed, created_by_id, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING ${COLUMNS}`,
        [
          successor.id,
          successor.keyId,
          successor.name,
          successor.projectId,
          successor.secretSealed,
          successor.createdById,
          now,
        ],
      )) as ScannerCallbackKeyEntity[];
      await manager.query(
        `UPDATE scanner_callback_keys SET expires_at = $2, replaced_by = $3 WHERE id = $1`,
        [oldId, windowEndsAt, successor.id],
      );
      return rows[0];
    });
  }

  async retire(id: string, now: Date): Promise<boolean> {
    const rows = (await this.dataSource.query(
      `UPDATE scanner_callback_keys SET retired_at = $2 WHERE id = $1 AND retired_at IS NULL
       RETURNING 1`,
      [id, now],
    )) as unknown[];
    return rows.length > 0;
  }

  async touch(id: string, now: Date): Promise<void> {
    await this.dataSource.query(
      `UPDATE scanner_callback_keys SET last_used_at = $2 WHERE id = $1`,
      [id, now],
    );
  }
}
