import { Injectable } from '@nestjs/common';
import { preparedQuery } from '@platform/database';
import { DataSource, type EntityManager } from 'typeorm';
import type { Purpose } from '../../app/domain/purposes';
import { DeviceEntity } from '../devices/device.entity';
import {
  insertDeviceIfAbsent,
  insertDeviceIfAbsentSql,
  pinHardwareKeys,
  touchDevice,
  type DeviceSighting,
  type HardwarePins,
  type NewDevice,
} from '../devices/device-writes.repository';
import {
  insertRequest,
  insertRequestForDevicesSql,
  supersedePendingRequests,
  type NewRequest,
} from '../requests/request-writes.repository';
import { appAttestPolicyFromJson, type AppAttestPolicy } from '../settings/app-attest.policy';
import {
  sourceAuthFromJson,
  type EnrollSourceAuthPolicy,
} from '../settings/enroll-source-auth.policy';
import { WebhookOutbox, webhookOutboxInsert } from '../webhooks/webhook-outbox';
import { consumeNonceSql, type NonceClaim } from './enroll-nonces.repository';
import type { WebhookEvent } from '../webhooks/webhook-events';

/** What `POST /enroll` needs to know of a serial's device before its checks. */
export type KnownDevice = Pick<
  DeviceEntity,
  'enrollmentTokenHash' | 'tpmEkCertSerial' | 'tpmAkPublic' | 'continuityKey'
>;

/** The device (null: serial not seen) and the two policies an enrollment applies. */
export interface EnrollmentLookup {
  known: KnownDevice | null;
  sourceAuth: EnrollSourceAuthPolicy;
  appAttest: AppAttestPolicy;
}

/** What the one-statement enrollment of a device not seen before did. */
export interface NewDeviceEnrollment {
  /** The nonce was live and is now used. */
  nonceConsumed: boolean;
  /** The device, its request (and its webhook event) were written. */
  inserted: boolean;
}

/** The `request.created` event of a request (webhooks.md). */
function requestCreated(request: NewRequest): WebhookEvent {
  return {
    type: 'request.created',
    data: {
      request_id: request.id,
      device_id: request.deviceId,
      purpose: request.purpose,
      requester_kind: request.requesterKind,
      requested_by: request.requestedBy,
      user_identity: request.userIdentity,
      registered_during_block: request.registeredDuringBlock,
    },
  };
}

/**
 * The writes of one enrollment, inside one transaction: the devices' and the requests' own
 * statements (devices/device-writes.repository.ts, requests/request-writes.repository.ts).
 */
export class EnrollmentTx {
  constructor(
    private readonly em: EntityManager,
    private readonly outbox: WebhookOutbox,
  ) {}

  /** Inserts the device unless its serial exists; true when inserted. */
  insertDeviceIfAbsent(device: NewDevice): Promise<boolean> {
    return insertDeviceIfAbsent(this.em, device);
  }

  lockDevice(serial: string): Promise<DeviceEntity | null> {
    return this.em
      .getRepository(DeviceEntity)
      .createQueryBuilder('d')
      .setLock('pessimistic_write')
      .where('d.serial = :serial', { serial })
      .getOne();
  }

  /** Records what the agent reported; pins the request key again if it was released. */
  touchDevice(id: string, seen: DeviceSighting): Promise<void> {
    return touchDevice(this.em, id, seen);
  }

  /** Pins the hardware keys the enrollment proved where none is pinned. */
  pinHardwareKeys(id: string, pins: HardwarePins): Promise<void> {
    return pinHardwareKeys(this.em, id, pins);
  }

  /** Pending requests of the same device, purpose and user are replaced by the new one. */
  supersedePending(deviceId: string, purpose: Purpose, userIdentity: string | null): Promise<void> {
    return supersedePendingRequests(this.em, deviceId, purpose, userIdentity);
  }

  /** Inserts the request and its `request.created` webhook event (same transaction). */
  async insertRequest(request: NewRequest): Promise<void> {
    await insertRequest(this.em, request);
    await this.outbox.enqueue(this.em, [requestCreated(request)]);
  }
}

/** The row of `EnrollmentRepository.lookup` (one row: the device's columns null if unknown). */
interface LookupRow {
  enrollment_token_hash: string | null;
  tpm_ek_cert_serial: string | null;
  tpm_ak_public: Buffer | null;
  continuity_key: string | null;
  source_auth: Record<string, unknown> | null;
  app_attest: Record<string, unknown> | null;
}

@Injectable()
export class EnrollmentRepository {
  constructor(
    private readonly dataSource: DataSource,
    private readonly outbox: WebhookOutbox,
  ) {}

  /**
   * One query: what an enrollment checks the device against (token hash, pins) and the stored
   * `enroll_source_auth` and `app_attest` policies (read on every call: a change on any replica
   * applies to the next enrollment). Policies are the settings module's; parsed by its rules.
   */
  async lookup(serial: string): Promise<EnrollmentLookup> {
    const [row] = await preparedQuery<LookupRow>(
      this.dataSource,
      'certsvc-enrollment-lookup',
      `SELECT d.enrollment_token_hash, d.tpm_ek_cert_serial, d.tpm_ak_public, d.continuity_key,
              (SELECT value FROM policy_settings WHERE key = 'enroll_source_auth') AS source_auth,
              (SELECT value FROM policy_settings WHERE key = 'app_attest') AS app_attest
         FROM (VALUES (1)) AS one LEFT JOIN devices d ON d.serial = $1`,
      [serial],
    );
    return {
      known:
        row.enrollment_token_hash === null
          ? null
          : {
              enrollmentTokenHash: row.enrollment_token_hash,
              tpmEkCertSerial: row.tpm_ek_cert_serial,
              tpmAkPublic: row.tpm_ak_public,
              continuityKey: row.continuity_key,
            },
      sourceAuth: sourceAuthFromJson(row.source_auth ?? undefined),
      appAttest: appAttestPolicyFromJson(row.app_attest),
    };
  }

  transaction<T>(work: (tx: EnrollmentTx) => Promise<T>): Promise<T> {
    return this.dataSource.transaction((em) => work(new EnrollmentTx(em, this.outbox)));
  }

  /**
   * The enrollment of a serial not seen before, in ONE statement (one round trip, atomic
   * without BEGIN/COMMIT): the `enroll` nonce is consumed (live, unused, unexpired —
   * `consumeNonceSql`: a stored nonce's row lock, a signed nonce's primary key make a concurrent
   * second use wait and then find it used); only if it was, the device
   * is inserted unless any unique key exists (`ON CONFLICT DO NOTHING`, like
   * `insertDeviceIfAbsent`); only if it was inserted, its request and `request.created` event.
   * A brand-new device has nothing pending to supersede and nothing to lock. When the nonce was
   * consumed but the device not inserted (created meanwhile), the caller goes on with
   * `transaction` without consuming the nonce again — what the two steps did before.
   */
  async enrollNewDevice(
    nonce: NonceClaim,
    device: NewDevice,
    request: NewRequest,
  ): Promise<NewDeviceEnrollment> {
    const spend = consumeNonceSql(nonce, 1);
    const devices = insertDeviceIfAbsentSql(device, 1 + spend.params.length, 'n');
    const requests = insertRequestForDevicesSql(
      request,
      1 + spend.params.length + devices.params.length,
      'd',
    );
    const next = 1 + spend.params.length + devices.params.length + requests.params.length;
    const events = this.outbox.enabled
      ? webhookOutboxInsert([requestCreated(request)], next, 'r')
      : undefined;
    // Named per variant (signed or stored nonce, with or without webhooks): each connection
    // parses and plans this statement once.
    const name = `certsvc-enroll-new-device-${nonce.signedExpiresAt ? 'signed' : 'stored'}${events ? '-events' : ''}`;
    const [row] = await preparedQuery<{ nonce: number; inserted: number }>(
      this.dataSource,
      name,
      `WITH n AS (${spend.sql}),
       d AS (${devices.sql}),
       r AS (${requests.sql})${events ? `,\n       w AS (${events.sql})` : ''}
       SELECT (SELECT count(*) FROM n)::int AS nonce, (SELECT count(*) FROM r)::int AS inserted`,
      [...spend.params, ...devices.params, ...requests.params, ...(events?.params ?? [])],
    );
    return { nonceConsumed: row.nonce === 1, inserted: row.inserted === 1 };
  }
}
