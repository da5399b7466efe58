import type { EntityManager } from 'typeorm';
import { DeviceEntity } from './device.entity';

/**
 * Writes of the `devices` table that other modules make — enrollment (a new device, what the
 * agent reported) and revocation (the block state) — on the `EntityManager` they pass: their
 * transaction, or the data source's manager. The devices module owns the table; nothing else
 * writes it.
 */

export type NewDevice = Pick<
  DeviceEntity,
  | 'id'
  | 'serial'
  | 'enrollmentTokenHash'
  | 'identityKey'
  | 'assignedPurposes'
  | 'enrollKeyHash'
  | 'agentVersion'
  | 'platform'
  | 'hostname'
  | 'lastSeenAt'
  | 'tpmEkCertSerial'
  | 'tpmAkPublic'
  | 'continuityKey'
>;

/** Hardware keys an enrollment proved; each is pinned only where nothing is pinned yet. */
export interface HardwarePins {
  tpmEkCertSerial: string | null;
  tpmAkPublic: Buffer | null;
  continuityKey: string | null;
}

export interface DeviceSighting {
  agentVersion: string | null;
  platform: string | null;
  hostname: string | null;
  enrollKeyHash: string;
  at: Date;
}

/** Inserts the device unless its serial exists; true when inserted. */
export async function insertDeviceIfAbsent(em: EntityManager, device: NewDevice): Promise<boolean> {
  const result = await em
    .createQueryBuilder()
    .insert()
    .into(DeviceEntity)
    .values(device)
    .orIgnore()
    .returning(['id'])
    .execute();
  return (result.raw as unknown[]).length > 0;
}

/**
 * The `INSERT` of `insertDeviceIfAbsent` as a member of the caller's `WITH` statement (the
 * first enrollment writes nonce, device and request in one statement): written only when the
 * relation `when` holds a row, skipped when any unique key exists, `RETURNING id`. Parameters
 * numbered from `first`; columns not named take their defaults, as the entity insert's do.
 */
export function insertDeviceIfAbsentSql(
  device: NewDevice,
  first: number,
  when: string,
): { sql: string; params: unknown[] } {
  const p = (i: number) => `$${first + i}`;
  return {
    sql: `INSERT INTO devices (id, serial, enrollment_token_hash, identity_key, assigned_purposes,
                enroll_key_hash, agent_version, platform, hostname, last_seen_at,
                tpm_ek_cert_serial, tpm_ak_public, continuity_key)
         SELECT ${p(0)}::uuid, ${p(1)}::varchar, ${p(2)}::varchar, ${p(3)}::varchar,
                ${p(4)}::text[], ${p(5)}::varchar, ${p(6)}::varchar, ${p(7)}::varchar,
                ${p(8)}::varchar, ${p(9)}::timestamptz, ${p(10)}::varchar, ${p(11)}::bytea,
                ${p(12)}::text
          WHERE EXISTS (SELECT 1 FROM ${when})
         ON CONFLICT DO NOTHING
         RETURNING id`,
    params: [
      device.id,
      device.serial,
      device.enrollmentTokenHash,
      device.identityKey,
      device.assignedPurposes,
      device.enrollKeyHash,
      device.agentVersion,
      device.platform,
      device.hostname,
      device.lastSeenAt,
      device.tpmEkCertSerial,
      device.tpmAkPublic,
      device.continuityKey,
    ],
  };
}

/** Records what the agent reported; pins the request key again if it was released. */
export async function touchDevice(
  em: EntityManager,
  id: string,
  seen: DeviceSighting,
): Promise<void> {
  await em.query(
    `UPDATE devices SET agent_version = COALESCE($2, agent_version), platform = COALESCE($3, platform),
              hostname = COALESCE($4, hostname), enroll_key_hash = COALESCE(enroll_key_hash, $5),
              last_seen_at = $6, updated_at = now()
        WHERE id = $1`,
    [id, seen.agentVersion, seen.platform, seen.hostname, seen.enrollKeyHash, seen.at],
  );
}

/** Pins what is not pinned yet (released pins are set again by the next proof). */
export async function pinHardwareKeys(
  em: EntityManager,
  id: string,
  pins: HardwarePins,
): Promise<void> {
  await em.query(
    `UPDATE devices SET tpm_ek_cert_serial = COALESCE(tpm_ek_cert_serial, $2),
              tpm_ak_public = COALESCE(tpm_ak_public, $3),
              continuity_key = COALESCE(continuity_key, $4), updated_at = now()
        WHERE id = $1`,
    [id, pins.tpmEkCertSerial, pins.tpmAkPublic, pins.continuityKey],
  );
}

/** Blocks or unblocks the device (the first block moment is kept while blocked). */
export async function setDeviceBlocked(
  em: EntityManager,
  deviceId: string,
  blocked: boolean,
  at: Date,
): Promise<void> {
  await em.query(
    `UPDATE devices SET blocked = $2,
         blocked_at = CASE WHEN $2 THEN COALESCE(blocked_at, $3) ELSE NULL END, updated_at = $3
       WHERE id = $1`,
    [deviceId, blocked, at],
  );
}
