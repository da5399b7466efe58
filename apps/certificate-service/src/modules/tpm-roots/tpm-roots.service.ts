import { Injectable } from '@nestjs/common';
import type { KeyObject } from 'node:crypto';
import { isUUID } from 'class-validator';
import { verifyEkChain } from '@platform/pki';
import { actorLabel, type Actor } from '../../app/access/actor';
import { AuditService } from '../audit/audit.service';
import { TpmRootFingerprintConflict, TpmRootsRepository } from './tpm-roots.repository';
import { TpmRootsError } from './tpm-roots.errors';
import type { TpmVendorRootEntity } from './tpm-vendor-root.entity';
import { inspectVendorRoot, singleCertificateDer } from './vendor-root';

export type EkVerification =
  | {
      ok: true;
      /** EK certificate serial: the DER INTEGER content octets, lowercase hex. */
      serialHex: string;
      ekPublicKey: KeyObject;
      ekCertDer: Buffer;
      rootId: string;
      rootName: string;
    }
  | { ok: false; reason: 'no_roots' | 'malformed' | 'untrusted' | 'expired' | 'not_ek' };

/**
 * TPM vendor roots (cert-admin settings, every change audited) and the EK certificate check the
 * enrollment path runs against them (docs/certificate-service/tpm-attestation.md, Vendor roots).
 */
@Injectable()
export class TpmRootsService {
  constructor(
    private readonly roots: TpmRootsRepository,
    private readonly audit: AuditService,
  ) {}

  list(): Promise<TpmVendorRootEntity[]> {
    return this.roots.list();
  }

  async add(actor: Actor, name: string, certificatePem: string): Promise<TpmVendorRootEntity> {
    const pem = singleCertificateDer(certificatePem);
    if ('problem' in pem) throw new TpmRootsError('tpm_root_invalid', pem.problem);
    const inspected = inspectVendorRoot(pem.der);
    if (!inspected.ok) throw new TpmRootsError('tpm_root_invalid', inspected.problem);
    const { root } = inspected;
    let created: TpmVendorRootEntity;
    try {
      created = await this.roots.create({
        name,
        certificateDer: root.der,
        fingerprintSha256: root.fingerprint,
        subject: root.subject,
        notBefore: root.notBefore,
        notAfter: root.notAfter,
        createdBy: actorLabel(actor),
      });
    } catch (error) {
      if (error instanceof TpmRootFingerprintConflict) throw new TpmRootsError('tpm_root_exists');
      throw error;
    }
    await this.audit.record({
      action: 'settings.tpm_root_add',
      actor,
      target: created.id,
      details: {
        name: created.name,
        fingerprint_sha256: created.fingerprintSha256,
        subject: created.subject,
        not_after: created.notAfter.toISOString(),
        self_signed: root.selfSigned,
      },
    });
    return created;
  }

  async remove(actor: Actor, id: string): Promise<void> {
    const root = isUUID(id, 'loose') ? await this.roots.findById(id) : null;
    if (!root || !(await this.roots.delete(root.id))) throw new TpmRootsError('tpm_root_not_found');
    await this.audit.record({
      action: 'settings.tpm_root_remove',
      actor,
      target: root.id,
      details: {
        name: root.name,
        fingerprint_sha256: root.fingerprintSha256,
        subject: root.subject,
      },
    });
  }

  /**
   * Checks an EK certificate (DER, as read from the TPM's NV index) up to a registered root
   * through the agent's intermediates (at most 4, each at most 8 KiB), at `at` (default now).
   * Never throws on what the agent sent; only a database failure propagates.
   */
  async verifyEkCertificate(
    ekCertDer: Buffer,
    intermediatesDer: readonly Buffer[],
    at: Date = new Date(),
  ): Promise<EkVerification> {
    const roots = await this.roots.list();
    const anchors = roots.map((r) => ({ id: r.id, name: r.name, der: r.certificateDer }));
    const result = verifyEkChain(ekCertDer, intermediatesDer, anchors, at);
    if (!result.ok) return { ok: false, reason: result.reason };
    return {
      ok: true,
      serialHex: result.serialHex,
      ekPublicKey: result.ekPublicKey,
      ekCertDer: result.ekCertDer,
      rootId: result.anchor.id,
      rootName: result.anchor.name,
    };
  }
}
