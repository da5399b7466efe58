import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { parseSshPublicKeyBlob } from '@platform/pki';
import { PrincipalAliasesService } from '../principal-aliases/principal-aliases.service';
import { SshCaService } from './ssh-ca.service';
import {
  SSH_CERTIFICATE_BACKDATE_MS,
  SSH_CERTIFICATE_LIFETIME_MS,
  sshCertificateRef,
  sshKeyId,
} from './ssh-certificate-profile';
import { SshCertificatesRepository, type NewSshCertificate } from './ssh-certificates.repository';

/** An approved `ssh` request, as issuance hands it over. */
export interface SshCertificateOrder {
  requestId: string;
  deviceId: string;
  deviceSerial: string;
  /** Device owner (a person's email): whose login names and aliases become principals. */
  owner: string | null;
  /** The public key blob stored (and validated) at `POST /enroll/ssh`. */
  publicKeyBlob: Buffer;
}

export type SshIssueOutcome =
  | { status: 'issued'; serial: string }
  /** `keepPending`: nothing was decided, the request stays pending (e.g. no principals yet). */
  | { status: 'error'; error: string; keepPending: boolean };

/**
 * Signs the certificates of a batch of approved `ssh` requests inside the issuance
 * transaction: principals of each distinct owner (personal login + enabled aliases), serials
 * from the sequence in one statement, node:crypto Ed25519 signatures, one multi-row INSERT.
 */
@Injectable()
export class SshCertificateIssuer {
  constructor(
    private readonly ca: SshCaService,
    private readonly certificates: SshCertificatesRepository,
    private readonly aliases: PrincipalAliasesService,
  ) {}

  async issue(
    em: EntityManager,
    orders: readonly SshCertificateOrder[],
    at: Date,
  ): Promise<Map<string, SshIssueOutcome>> {
    const outcomes = new Map<string, SshIssueOutcome>();
    if (orders.length === 0) return outcomes;
    if (!this.ca.enabled) {
      // Requests made before SSH was switched off wait; the rest of the batch goes on.
      for (const o of orders) {
        outcomes.set(o.requestId, { status: 'error', error: 'ssh_disabled', keepPending: true });
      }
      return outcomes;
    }
    const ca = this.ca.ca();
    const principalsOf = await this.principalsOfOwners(orders);
    const ready = orders.filter((o) => {
      if ((principalsOf.get(o.owner ?? '') ?? []).length > 0) return true;
      outcomes.set(o.requestId, {
        status: 'error',
        error: 'ssh_principals_missing',
        keepPending: true,
      });
      return false;
    });
    const serials = await this.certificates.nextSerials(em, ready.length);
    const validAfter = new Date(at.getTime() - SSH_CERTIFICATE_BACKDATE_MS);
    const validBefore = new Date(at.getTime() + SSH_CERTIFICATE_LIFETIME_MS);
    const rows: NewSshCertificate[] = [];
    ready.forEach((order, i) => {
      try {
        const publicKey = parseSshPublicKeyBlob(order.publicKeyBlob);
        const principals = principalsOf.get(order.owner ?? '') ?? [];
        const keyId = sshKeyId(order.requestId, order.deviceSerial);
        const cert = ca.issue({
          publicKey,
          serial: serials[i],
          keyId,
          principals,
          validAfter,
          validBefore,
        });
        rows.push({
          serial: serials[i],
          requestId: order.requestId,
          deviceId: order.deviceId,
          keyId,
          principals,
          owner: order.owner,
          keyType: publicKey.type,
          publicKeyFingerprint: publicKey.fingerprint,
          validAfter: cert.validAfter,
          validBefore: cert.validBefore,
          certificate: cert.blob,
        });
        outcomes.set(order.requestId, { status: 'issued', serial: sshCertificateRef(serials[i]) });
      } catch (error) {
        const code =
          error instanceof Error && 'code' in error && typeof error.code === 'string'
            ? error.code
            : 'issuance_failed';
        outcomes.set(order.requestId, { status: 'error', error: code, keepPending: false });
      }
    });
    await this.certificates.insertMany(em, rows);
    return outcomes;
  }

  /** Principals per distinct owner, in one query ('' for no owner: none). */
  private principalsOfOwners(
    orders: readonly SshCertificateOrder[],
  ): Promise<Map<string, string[]>> {
    const owners = orders.map((o) => o.owner).filter((o): o is string => !!o);
    return this.aliases.principalsOfMany(owners);
  }
}
