import { createPublicKey, type KeyObject } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import {
  issueK8sClientCertificate,
  loadIssuingCa,
  normalizeSerialHex,
  toPem,
  type KeyAlgorithm,
  type LoadedIssuingCa,
} from '@platform/pki';
import {
  CERTSVC_CONFIG,
  type CertsvcConfig,
  type K8sPromptStep,
} from '../../app/config/certsvc-config';
import { DomainError } from '@platform/errors';
import type { Actor } from '../../app/access/actor';
import { CertsvcMetrics } from '../../app/metrics/certsvc-metrics';
import { AuditService, type AuditEntry } from '../audit/audit.service';
import { LicenseSeatsService } from '../license/license-seats.service';
import type { EphemeralAdmissionFacts } from '../license/license.repository';
import { k8sPromptPolicyFromJson } from '../settings/k8s-prompt.policy';
import { PrincipalAliasesService } from '../principal-aliases/principal-aliases.service';
import type { K8sClusterEntity, K8sGroupMapping } from './k8s-cluster.entity';
import { K8sCallersRepository, type IssuedK8sCredentialRow } from './k8s-callers.repository';
import { InsertBatcher } from './insert-batcher';
import { K8sClustersRepository } from './k8s-clusters.repository';
import { K8sError } from './k8s.errors';

/** The TLS client certificate of a broker call, as the listener saw it. */
export interface PresentedCertificate {
  /** DER of the leaf; undefined when the client sent none. */
  der?: Buffer;
  /** Node's serial (upper-case hex). */
  serial?: string;
  /** Chain verified against the service's issuing CA at the handshake. */
  chainVerified: boolean;
  /** OpenSSL's verification error (`CERT_HAS_EXPIRED`, ...). */
  verifyError?: string;
}

/** The person behind a broker call: the `user_mtls` certificate's user and device. */
export interface Caller {
  user: string;
  /** Serial of the presented `user_mtls` certificate. */
  serial: string;
  deviceId: string;
  /** License identity key of the device (`ek:`, `sn:`, `pk:`). */
  identityKey: string;
}

/** The cluster as a broker call needs it (sealed CA keys left out). */
export type ClusterView = Pick<
  K8sClusterEntity,
  'id' | 'name' | 'serverUrl' | 'caBundle' | 'groupMappings' | 'enabled' | 'clientCaIssuingDer'
>;

/** What a call revealed before it was refused (for its audit record and metric). */
export interface Seen {
  user?: string;
  callerSerial?: string;
  /** Registry name of the cluster, once found. */
  cluster?: string;
}

/** The identified person as the audit log's actor (roles are not part of the record). */
function personActor(email: string): Actor {
  return { kind: 'user', email, role: null, roles: [] };
}

export interface CredentialRequest {
  cluster: string;
  /** PEM SubjectPublicKeyInfo of the key pair the plugin generated. */
  publicKeyPem: string;
  /** False when the caller declares that no session can ask the person (no GUI, macOS). */
  promptAvailable: boolean;
}

/** What the agent/plugin must do before using the credential. */
export type PromptRequirement = 'none' | 'once_per_window' | 'every_time';

export interface IssuedCredential {
  user: string;
  groups: string[];
  certificatePem: string;
  serial: string;
  notBefore: Date;
  notAfter: Date;
  cluster: { name: string; serverUrl: string; caBundle: string };
  prompt: PromptRequirement;
}

const PROMPT_OF: Record<Exclude<K8sPromptStep, 'raised'>, PromptRequirement> = {
  off: 'none',
  ask_once_per_window: 'once_per_window',
  ask_every_time: 'every_time',
};

/** What the plugin must ask at a step; `raised` refuses when no session can ask. */
function promptFor(step: K8sPromptStep, promptAvailable: boolean): PromptRequirement {
  if (step !== 'raised') return PROMPT_OF[step];
  if (!promptAvailable) throw new K8sError('k8s_prompt_unavailable');
  return 'every_time';
}

/** Groups a person gets on a cluster: every mapping that matches, in mapping order, once. */
export function groupsFor(
  mappings: readonly K8sGroupMapping[],
  person: { email: string; roles: readonly string[]; aliases: readonly string[] },
): string[] {
  const email = person.email.toLowerCase();
  const groups = mappings
    .filter(
      (m) =>
        m.source === 'any' ||
        (m.source === 'role' && person.roles.includes(m.value)) ||
        (m.source === 'alias' && person.aliases.includes(m.value)) ||
        (m.source === 'user' && m.value.toLowerCase() === email),
    )
    .map((m) => m.group);
  return [...new Set(groups)];
}

function publicKeyOf(pem: string): { spkiDer: Buffer; algorithm: KeyAlgorithm } {
  let key: KeyObject;
  try {
    key = createPublicKey({ key: pem, format: 'pem' });
  } catch {
    throw new K8sError('k8s_public_key_invalid');
  }
  const curve = key.asymmetricKeyDetails?.namedCurve;
  const bits = key.asymmetricKeyDetails?.modulusLength ?? 0;
  if (key.asymmetricKeyType === 'ec' && (curve === 'prime256v1' || curve === 'secp384r1')) {
    return { spkiDer: key.export({ format: 'der', type: 'spki' }), algorithm: 'ec' };
  }
  if (key.asymmetricKeyType === 'rsa' && bits >= 2048 && bits <= 8192) {
    return { spkiDer: key.export({ format: 'der', type: 'spki' }), algorithm: 'rsa' };
  }
  throw new K8sError('k8s_public_key_invalid');
}

/**
 * The credential broker: identifies the caller by its `user_mtls` certificate (TLS chain to
 * the service's CA, then this service's own record: same DER, purpose, not revoked, not
 * expired), and signs a 10-minute client certificate for the named cluster with that cluster's
 * CA. No request row and no approval (specification, "Certificate lifetimes").
 */
@Injectable()
export class K8sCredentialService {
  private readonly loadedCas = new Map<string, LoadedIssuingCa>();
  /** Credential rows of concurrent calls outside a ledger transaction: one INSERT per batch. */
  private readonly recorder = new InsertBatcher<IssuedK8sCredentialRow>((rows) =>
    this.callers.recordIssued(rows),
  );

  /** Audit records of concurrent calls: one INSERT per batch (`AuditService.recordMany`). */
  private readonly auditLog = new InsertBatcher<AuditEntry>((entries) =>
    this.audit.recordMany(entries),
  );

  constructor(
    private readonly callers: K8sCallersRepository,
    private readonly clusters: K8sClustersRepository,
    private readonly aliases: PrincipalAliasesService,
    private readonly license: LicenseSeatsService,
    private readonly audit: AuditService,
    private readonly metrics: CertsvcMetrics,
    @Inject(CERTSVC_CONFIG) private readonly config: CertsvcConfig,
  ) {}

  /**
   * The person (and device) behind a presented certificate, the person's roles and the named
   * cluster — one statement — or the refusal.
   */
  async identify(
    presented: PresentedCertificate,
    clusterName: string,
    now = new Date(),
  ): Promise<{
    caller: Caller;
    roles: string[];
    cluster: ClusterView | undefined;
    promptStep: K8sPromptStep;
    licenseFacts: EphemeralAdmissionFacts | undefined;
  }> {
    if (!presented.der) throw new K8sError('k8s_client_certificate_required');
    if (!presented.chainVerified) {
      throw new K8sError(
        presented.verifyError === 'CERT_HAS_EXPIRED'
          ? 'k8s_client_certificate_expired'
          : 'k8s_client_certificate_invalid',
      );
    }
    const serial = normalizeSerialHex(presented.serial ?? '');
    // The license facts of the certificate's device are read beside the caller's look-up
    // (both keyed by the serial): one round trip before signing instead of two.
    const [row, licenseFacts] = serial
      ? await Promise.all([
          this.callers.context(serial, clusterName),
          this.license.ephemeralAdmissionFacts(serial, 'k8s', now),
        ])
      : [undefined, undefined];
    if (!row || !row.der.equals(presented.der) || row.purpose !== 'user_mtls') {
      throw new K8sError('k8s_client_certificate_invalid');
    }
    if (row.status !== 'active') throw new K8sError('k8s_client_certificate_revoked');
    if (row.notAfter.getTime() <= now.getTime()) {
      throw new K8sError('k8s_client_certificate_expired');
    }
    if (!row.userIdentity) throw new K8sError('k8s_client_certificate_invalid');
    const cluster =
      row.clusterId && row.clusterName && row.clientCaIssuingDer
        ? {
            id: row.clusterId,
            name: row.clusterName,
            serverUrl: row.serverUrl ?? '',
            caBundle: row.caBundle ?? '',
            groupMappings: row.groupMappings ?? [],
            enabled: row.enabled === true,
            clientCaIssuingDer: row.clientCaIssuingDer,
          }
        : undefined;
    return {
      caller: {
        user: row.userIdentity,
        serial: row.serial,
        deviceId: row.deviceId,
        identityKey: row.identityKey,
      },
      roles: row.roles,
      cluster,
      promptStep: k8sPromptPolicyFromJson(row.promptPolicy, this.config.k8s.promptStep).promptStep,
      licenseFacts,
    };
  }

  /**
   * One broker call: the credential, or the refusal. Either way the outcome is counted in
   * `certsvc_k8s_credentials_total{cluster,result}` and audited (`k8s_credential.issue` /
   * `k8s_credential.refuse`; refusals only for callers whose certificate chains to the
   * service's CA, so unauthenticated traffic cannot fill the audit log).
   */
  async issue(
    presented: PresentedCertificate,
    request: CredentialRequest,
  ): Promise<IssuedCredential> {
    const seen: Seen = {};
    let issued: IssuedCredential;
    try {
      issued = await this.issueFor(presented, request, seen);
    } catch (error) {
      if (error instanceof DomainError) await this.refused(presented, error.code, seen);
      throw error;
    }
    this.metrics.k8sCredential(issued.cluster.name, 'issued');
    await this.auditLog.add({
      action: 'k8s_credential.issue',
      actor: personActor(issued.user),
      target: issued.serial,
      details: {
        cluster: issued.cluster.name,
        groups: issued.groups,
        expires_at: issued.notAfter.toISOString(),
        client_certificate_serial: seen.callerSerial,
        prompt: issued.prompt,
      },
    });
    return issued;
  }

  /** Counts and audits a refused call (also the broker's own refusals, e.g. a bad body). */
  async refused(presented: PresentedCertificate, code: string, seen: Seen = {}): Promise<void> {
    this.metrics.k8sCredential(seen.cluster ?? '', code);
    if (!presented.der || !presented.chainVerified) return;
    await this.auditLog.add({
      action: 'k8s_credential.refuse',
      actor: seen.user ? personActor(seen.user) : null,
      target: seen.cluster,
      details: {
        code,
        cluster: seen.cluster ?? null,
        client_certificate_serial: normalizeSerialHex(presented.serial ?? '') ?? null,
      },
    });
  }

  private async issueFor(
    presented: PresentedCertificate,
    request: CredentialRequest,
    seen: Seen,
  ): Promise<IssuedCredential> {
    const { caller, roles, cluster, promptStep, licenseFacts } = await this.identify(
      presented,
      request.cluster,
    );
    const { user } = caller;
    seen.user = user;
    seen.callerSerial = caller.serial;
    seen.cluster = cluster?.name;
    if (!cluster) throw new K8sError('k8s_cluster_not_found');
    if (!cluster.enabled) throw new K8sError('k8s_cluster_disabled');
    const prompt = promptFor(promptStep, request.promptAvailable);
    const key = publicKeyOf(request.publicKeyPem);
    // Alias membership is read only when a rule of the cluster maps an alias.
    const aliases = cluster.groupMappings.some((m) => m.source === 'alias')
      ? await this.aliases.aliasesOf(user)
      : [];
    const groups = groupsFor(cluster.groupMappings, { email: user, roles, aliases });
    const ca = await this.clusterCa(cluster);
    const issued = await this.license.admitEphemeralIssuance(licenseFacts, 'k8s', async (em) => {
      const certificate = issueK8sClientCertificate(ca, {
        user,
        groups,
        publicKeySpkiDer: key.spkiDer,
        keyAlgorithm: key.algorithm,
      });
      const row = {
        serial: certificate.serial,
        clusterId: cluster.id,
        deviceId: caller.deviceId,
        userIdentity: user,
        callerSerial: caller.serial,
        notAfter: certificate.notAfter,
      };
      // Inside a ledger transaction (a slot or seat taken) the row joins it; otherwise
      // concurrent calls share one INSERT.
      if (em) await this.callers.recordIssued([row], em);
      else await this.recorder.add(row);
      return certificate;
    });
    return {
      user,
      groups,
      certificatePem: toPem('CERTIFICATE', issued.certificateDer),
      serial: issued.serial,
      notBefore: issued.notBefore,
      notAfter: issued.notAfter,
      cluster: { name: cluster.name, serverUrl: cluster.serverUrl, caBundle: cluster.caBundle },
      prompt,
    };
  }

  /**
   * The cluster's issuing CA, opened once per process (the cluster's CA never changes; the
   * sealed keys are read only on the first call).
   */
  private async clusterCa(cluster: ClusterView): Promise<LoadedIssuingCa> {
    const cached = this.loadedCas.get(cluster.id);
    if (cached && cached.certificateDer.equals(cluster.clientCaIssuingDer)) return cached;
    const entity = await this.clusters.findById(cluster.id);
    if (!entity) throw new K8sError('k8s_cluster_not_found');
    const loaded = this.openClusterCa(entity);
    this.loadedCas.set(cluster.id, loaded);
    return loaded;
  }

  private openClusterCa(cluster: K8sClusterEntity): LoadedIssuingCa {
    return loadIssuingCa(
      {
        formatVersion: 1,
        root: {
          certificateDer: cluster.clientCaRootDer,
          certificatePem: toPem('CERTIFICATE', cluster.clientCaRootDer),
          encryptedPrivateKey: cluster.clientCaRootEncryptedKey,
        },
        issuing: {
          certificateDer: cluster.clientCaIssuingDer,
          certificatePem: toPem('CERTIFICATE', cluster.clientCaIssuingDer),
          encryptedPrivateKey: cluster.clientCaIssuingEncryptedKey,
        },
        createdAt: cluster.createdAt,
      },
      this.config.pki.caKeyEncryptionKey,
    );
  }
}
