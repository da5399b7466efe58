import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AppAttestChallengeEntity } from './app-attest-challenge.entity';
import { AppAttestationEntity } from './app-attestation.entity';

/** Challenges and attestations expired longer ago than this are purged. */
const PURGE_AFTER = '1 day';

/** The only access to `app_attest_challenges` and `app_attestations`. */
@Injectable()
export class AppAttestRepository {
  constructor(private readonly dataSource: DataSource) {}

  async insertChallenge(challengeHash: string, serial: string, expiresAt: Date): Promise<void> {
    await this.dataSource
      .getRepository(AppAttestChallengeEntity)
      .insert({ challengeHash, serial, expiresAt });
  }

  /** Marks the challenge used if it is of `serial`, unused and unexpired (atomically). */
  async consumeChallenge(challengeHash: string, serial: string): Promise<boolean> {
    const [rows] = (await this.dataSource.query(
      `UPDATE app_attest_challenges SET used_at = now()
        WHERE challenge_hash = $1 AND serial = $2 AND used_at IS NULL AND expires_at > now()
        RETURNING challenge_hash`,
      [challengeHash, serial],
    )) as [unknown[], number];
    return rows.length === 1;
  }

  async insertAttestation(row: AppAttestationEntity): Promise<void> {
    await this.dataSource.getRepository(AppAttestationEntity).insert(row);
  }

  /** Marks the attestation used if it is of `serial`, unused and unexpired (atomically). */
  async consumeAttestation(id: string, serial: string): Promise<boolean> {
    const [rows] = (await this.dataSource.query(
      `UPDATE app_attestations SET used_at = now()
        WHERE id = $1 AND serial = $2 AND used_at IS NULL AND expires_at > now()
        RETURNING id`,
      [id, serial],
    )) as [unknown[], number];
    return rows.length === 1;
  }

  async purgeExpired(): Promise<void> {
    await this.dataSource.query(
      `DELETE FROM app_attest_challenges WHERE expires_at < now() - interval '${PURGE_AFTER}'`,
    );
    await this.dataSource.query(
      `DELETE FROM app_attestations WHERE expires_at < now() - interval '${PURGE_AFTER}'`,
    );
  }
}
