import { Inject, Injectable } from '@nestjs/common';
import { isUUID } from 'class-validator';
import { certificatesFromPem, generateCaMaterial, readCertificateInfo, toPem } from '@platform/pki';
import { actorLabel, type Actor } from '../../app/access/actor';
import { CERTSVC_CONFIG, type CertsvcConfig } from '../../app/config/certsvc-config';
import { AuditService } from '../audit/audit.service';
import type { K8sClusterEntity, K8sGroupMapping } from './k8s-cluster.entity';
import { K8sClustersRepository, type K8sClusterChange } from './k8s-clusters.repository';
import { K8sError } from './k8s.errors';

/** Fields an administrator sets; all present at creation, any subset on change. */
export interface K8sClusterInput {
  name: string;
  serverUrl: string;
  caBundle: string;
  groupMappings: K8sGroupMapping[];
  enabled: boolean;
}

export const MAX_CA_BUNDLE_CERTIFICATES = 32;

/** The API server URL as stored: https, no credentials, query or fragment; no trailing slash. */
export function normalizeServerUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new K8sError('k8s_server_url_invalid');
  }
  if (url.protocol !== 'https:' || url.username || url.password || url.search || url.hash) {
    throw new K8sError('k8s_server_url_invalid');
  }
  return url.toString().replace(/\/+$/, '');
}

/** The CA bundle as stored: each certificate parsed and written back as PEM. */
export function normalizeCaBundle(pem: string): string {
  const ders = certificatesFromPem(pem);
  if (ders.length === 0 || ders.length > MAX_CA_BUNDLE_CERTIFICATES) {
    throw new K8sError('k8s_ca_bundle_invalid');
  }
  try {
    for (const der of ders) readCertificateInfo(der);
  } catch {
    throw new K8sError('k8s_ca_bundle_invalid');
  }
  return ders.map((der) => toPem('CERTIFICATE', der)).join('');
}

/**
 * The cluster registry (cert-admin only). Each cluster gets its own client-certificate CA at
 * registration (ECDSA P-256 root and issuing CA, keys sealed like the built-in CA's); the
 * administrator installs its chain as the API server's `--client-ca-file`.
 */
@Injectable()
export class K8sClustersService {
  constructor(
    private readonly clusters: K8sClustersRepository,
    private readonly audit: AuditService,
    @Inject(CERTSVC_CONFIG) private readonly config: CertsvcConfig,
  ) {}

  list(): Promise<K8sClusterEntity[]> {
    return this.clusters.list();
  }

  async get(id: string): Promise<K8sClusterEntity> {
    const cluster = isUUID(id, 'loose') ? await this.clusters.findById(id) : null;
    if (!cluster) throw new K8sError('k8s_cluster_not_found');
    return cluster;
  }

  async create(actor: Actor, input: K8sClusterInput): Promise<K8sClusterEntity> {
    const serverUrl = normalizeServerUrl(input.serverUrl);
    const caBundle = normalizeCaBundle(input.caBundle);
    if (await this.clusters.findByName(input.name)) throw new K8sError('k8s_cluster_exists');
    const ca = generateCaMaterial(this.config.pki.caKeyEncryptionKey, {
      rootCommonName: `Kubernetes ${input.name} client Root CA`,
      issuingCommonName: `Kubernetes ${input.name} client CA`,
    });
    const created = await this.clusters.create({
      name: input.name,
      serverUrl,
      caBundle,
      groupMappings: input.groupMappings,
      enabled: input.enabled,
      clientCaRootDer: ca.root.certificateDer,
      clientCaRootEncryptedKey: ca.root.encryptedPrivateKey,
      clientCaIssuingDer: ca.issuing.certificateDer,
      clientCaIssuingEncryptedKey: ca.issuing.encryptedPrivateKey,
      createdBy: actorLabel(actor),
    });
    if (!created) throw new K8sError('k8s_cluster_exists');
    await this.audit.record({
      action: 'k8s_cluster.create',
      actor,
      target: created.id,
      details: { name: created.name, server_url: created.serverUrl, enabled: created.enabled },
    });
    return created;
  }

  async update(
    actor: Actor,
    id: string,
    input: Partial<K8sClusterInput>,
  ): Promise<K8sClusterEntity> {
    await this.get(id);
    const change: K8sClusterChange = {};
    if (input.name !== undefined) change.name = input.name;
    if (input.serverUrl !== undefined) change.serverUrl = normalizeServerUrl(input.serverUrl);
    if (input.caBundle !== undefined) change.caBundle = normalizeCaBundle(input.caBundle);
    if (input.groupMappings !== undefined) change.groupMappings = input.groupMappings;
    if (input.enabled !== undefined) change.enabled = input.enabled;
    if (Object.keys(change).length > 0) {
      const outcome = await this.clusters.update(id, change);
      if (outcome === 'missing') throw new K8sError('k8s_cluster_not_found');
      if (outcome === 'name_taken') throw new K8sError('k8s_cluster_exists');
    }
    await this.audit.record({
      action: 'k8s_cluster.update',
      actor,
      target: id,
      details: { fields: Object.keys(change) },
    });
    return this.get(id);
  }

  async delete(actor: Actor, id: string): Promise<void> {
    const cluster = await this.get(id);
    if (!(await this.clusters.delete(id))) throw new K8sError('k8s_cluster_not_found');
    await this.audit.record({
      action: 'k8s_cluster.delete',
      actor,
      target: id,
      details: { name: cluster.name },
    });
  }
}
