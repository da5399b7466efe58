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
import { LicenseService } from '../license/license.service';
import { PrincipalAliasesService } from '../principal-aliases/principal-aliases.service';
import type { K8sClusterEntity, K8sGroupMapping } from './k8s-cluster.entity';
import { K8sCallersRepository } from './k8s-callers.repository';
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

  constructor(
    private readonly callers: K8sCallersRepository,
    private readonly clusters: K8sClustersRepository,
    private readonly aliases: PrincipalAliasesService,
    private readonly license: LicenseService,
    @Inject(CERTSVC_CONFIG) private readonly config: CertsvcConfig,
  ) {}

  /** The person (and device) behind a presented certificate, or the refusal. */
  async identify(presented: PresentedCertificate, now = new Date()): Promise<Caller> {
    if (!presented.der) throw new K8sError('k8s_client_certificate_required');
    if (!presented.chainVerified) {
      throw new K8sError(
        presented.verifyError === 'CERT_HAS_EXPIRED'
          ? 'k8s_client_certificate_expired'
          : 'k8s_client_certificate_invalid',
      );
    }
    const serial = normalizeSerialHex(presented.serial ?? '');
    const row = serial ? await this.callers.certificate(serial) : undefined;
    if (!row || !row.der.equals(presented.der) || row.purpose !== 'user_mtls') {
      throw new K8sError('k8s_client_certificate_invalid');
    }
    if (row.status !== 'active') throw new K8sError('k8s_client_certificate_revoked');
    if (row.notAfter.getTime() <= now.getTime()) {
      throw new K8sError('k8s_client_certificate_expired');
    }
    if (!row.userIdentity) throw new K8sError('k8s_client_certificate_invalid');
    return {
      user: row.userIdentity,
      serial: row.serial,
      deviceId: row.deviceId,
      identityKey: row.identityKey,
    };
  }

  async issue(
    presented: PresentedCertificate,
    request: CredentialRequest,
  ): Promise<IssuedCredential> {
    const caller = await this.identify(presented);
    const { user } = caller;
    const cluster = await this.clusters.findByName(request.cluster);
    if (!cluster) throw new K8sError('k8s_cluster_not_found');
    if (!cluster.enabled) throw new K8sError('k8s_cluster_disabled');
    const prompt = this.promptFor(request.promptAvailable);
    const key = publicKeyOf(request.publicKeyPem);
    const [roles, aliases] = await Promise.all([
      this.callers.rolesOf(user),
      this.aliases.aliasesOf(user),
    ]);
    const groups = groupsFor(cluster.groupMappings, { email: user, roles, aliases });
    const issued = await this.license.admitEphemeralIssuance(
      { deviceId: caller.deviceId, identityKey: caller.identityKey, purpose: 'k8s' },
      async (em) => {
        const certificate = issueK8sClientCertificate(this.clusterCa(cluster), {
          user,
          groups,
          publicKeySpkiDer: key.spkiDer,
          keyAlgorithm: key.algorithm,
        });
        await this.callers.recordIssued(
          {
            serial: certificate.serial,
            clusterId: cluster.id,
            deviceId: caller.deviceId,
            userIdentity: user,
            callerSerial: caller.serial,
            notAfter: certificate.notAfter,
          },
          em,
        );
        return certificate;
      },
    );
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

  private promptFor(promptAvailable: boolean): PromptRequirement {
    const step = this.config.k8s.promptStep;
    if (step !== 'raised') return PROMPT_OF[step];
    if (!promptAvailable) throw new K8sError('k8s_prompt_unavailable');
    return 'every_time';
  }

  /** The cluster's issuing CA, opened once per process (the cluster's CA never changes). */
  private clusterCa(cluster: K8sClusterEntity): LoadedIssuingCa {
    const cached = this.loadedCas.get(cluster.id);
    if (cached && cached.certificateDer.equals(cluster.clientCaIssuingDer)) return cached;
    const loaded = this.openClusterCa(cluster);
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
