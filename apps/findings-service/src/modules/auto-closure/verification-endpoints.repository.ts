import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';

export interface StoredEndpoint {
  projectId: string;
  url: string;
  secretSealed: string;
  createdAt: Date;
  updatedAt: Date;
}

/** The projects' re-verification endpoints (`verification_endpoints`; this module writes it). */
@Injectable()
export class VerificationEndpointsRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  async get(projectId: string): Promise<StoredEndpoint | undefined> {
    const rows = (await this.dataSource.query(
      `SELECT project_id AS "projectId", url, secret_sealed AS "secretSealed",
              created_at AS "createdAt", updated_at AS "updatedAt"
         FROM verification_endpoints WHERE project_id = $1`,
      [projectId],
    )) as StoredEndpoint[];
    return rows[0];
  }

  /** Sets the URL; a new secret only when `secretSealed` is given (first save or rotation). */
  async put(
    projectId: string,
    url: string,
    secretSealed: string | null,
    now: Date,
  ): Promise<StoredEndpoint> {
    const rows = (await this.dataSource.query(
      `INSERT INTO verification_endpoints (project_id, url, secret_sealed, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $4)
       ON CONFLICT (project_id) DO UPDATE SET url = EXCLUDED.url,
         secret_sealed = CASE WHEN $5 THEN EXCLUDED.secret_sealed
                              ELSE verification_endpoints.secret_sealed END,
         updated_at = EXCLUDED.updated_at
       RETURNING project_id AS "projectId", url, secret_sealed AS "secretSealed",
                 created_at AS "createdAt", updated_at AS "updatedAt"`,
      [projectId, url, secretSealed ?? '', now, secretSealed !== null],
    )) as StoredEndpoint[];
    return rows[0] as StoredEndpoint;
  }

  async delete(projectId: string): Promise<boolean> {
    const rows = (await this.dataSource.query(
      `DELETE FROM verification_endpoints WHERE project_id = $1 RETURNING 1`,
      [projectId],
    )) as unknown[];
    return rows.length > 0;
  }
}
