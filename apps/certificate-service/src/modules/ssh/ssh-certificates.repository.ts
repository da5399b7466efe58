import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { SshCertificateEntity } from './ssh-certificate.entity';

export interface NewSshCertificate {
  serial: bigint;
  requestId: string;
  deviceId: string;
  keyId: string;
  principals: readonly string[];
  owner: string | null;
  keyType: string;
  publicKeyFingerprint: string;
  validAfter: Date;
  validBefore: Date;
  certificate: Buffer;
}

@Injectable()
export class SshCertificatesRepository {
  constructor(private readonly dataSource: DataSource) {}

  private get repo() {
    return this.dataSource.getRepository(SshCertificateEntity);
  }

  transaction<T>(work: (em: EntityManager) => Promise<T>): Promise<T> {
    return this.dataSource.transaction(work);
  }

  /** `count` new serials from the sequence in one statement. */
  async nextSerials(em: EntityManager, count: number): Promise<bigint[]> {
    if (count === 0) return [];
    const rows = (await em.query(
      `SELECT nextval('ssh_certificate_serial_seq')::text AS serial FROM generate_series(1, $1)`,
      [count],
    )) as { serial: string }[];
    return rows.map((r) => BigInt(r.serial));
  }

  /** One multi-row INSERT. */
  async insertMany(em: EntityManager, rows: readonly NewSshCertificate[]): Promise<void> {
    if (rows.length === 0) return;
    await em.query(
      `INSERT INTO ssh_certificates (serial, request_id, device_id, key_id, principals, owner,
         key_type, public_key_fingerprint, valid_after, valid_before, certificate, status, created_at)
       SELECT s, r, d, k, string_to_array(p, ','), o, kt, f, va, vb, c, 'active', now()
       FROM unnest($1::bigint[], $2::uuid[], $3::uuid[], $4::varchar[], $5::text[], $6::varchar[],
                   $7::varchar[], $8::varchar[], $9::timestamptz[], $10::timestamptz[], $11::bytea[])
         AS t(s, r, d, k, p, o, kt, f, va, vb, c)`,
      [
        rows.map((r) => r.serial.toString()),
        rows.map((r) => r.requestId),
        rows.map((r) => r.deviceId),
        rows.map((r) => r.keyId),
        // Principals never contain a comma (checked when the certificate is built).
        rows.map((r) => r.principals.join(',')),
        rows.map((r) => r.owner),
        rows.map((r) => r.keyType),
        rows.map((r) => r.publicKeyFingerprint),
        rows.map((r) => r.validAfter),
        rows.map((r) => r.validBefore),
        rows.map((r) => r.certificate),
      ],
    );
  }

  findBySerial(serial: bigint): Promise<SshCertificateEntity | null> {
    return this.repo.findOneBy({ serial: serial.toString() });
  }

  /** The certificate issued for a request (one per request). */
  forRequest(requestId: string): Promise<SshCertificateEntity | null> {
    return this.repo.findOne({ where: { requestId }, order: { createdAt: 'DESC' } });
  }

  activeOfDevice(deviceId: string): Promise<SshCertificateEntity[]> {
    return this.repo.find({ where: { deviceId, status: 'active' }, order: { serial: 'ASC' } });
  }

  /** Marks active certificates revoked in one UPDATE; returns the rows that changed. */
  async markRevoked(
    em: EntityManager,
    serials: readonly bigint[],
    reason: string,
    at: Date,
  ): Promise<SshCertificateEntity[]> {
    if (serials.length === 0) return [];
    const [rows] = (await em.query(
      `UPDATE ssh_certificates SET status = 'revoked', revoked_at = $2, revocation_reason = $3
       WHERE serial = ANY($1::bigint[]) AND status = 'active'
       RETURNING serial::text, request_id, device_id, key_id, principals, owner,
                 public_key_fingerprint, valid_before`,
      [serials.map(String), at, reason],
    )) as [
      {
        serial: string;
        request_id: string;
        device_id: string;
        key_id: string;
        principals: string[];
        owner: string | null;
        public_key_fingerprint: string;
        valid_before: Date;
      }[],
      number,
    ];
    return rows.map((r) =>
      Object.assign(new SshCertificateEntity(), {
        serial: r.serial,
        requestId: r.request_id,
        deviceId: r.device_id,
        keyId: r.key_id,
        principals: r.principals,
        owner: r.owner,
        publicKeyFingerprint: r.public_key_fingerprint,
        validBefore: r.valid_before,
        status: 'revoked' as const,
        revokedAt: at,
        revocationReason: reason,
      }),
    );
  }

  /** Serials of revoked certificates not yet expired at `now` (the KRL's serial part). */
  async revokedSerials(now: Date): Promise<bigint[]> {
    const rows = (await this.dataSource.query(
      `SELECT serial::text FROM ssh_certificates WHERE status = 'revoked' AND valid_before > $1`,
      [now],
    )) as { serial: string }[];
    return rows.map((r) => BigInt(r.serial));
  }
}
