import { CertsvcError } from '../../app/errors/certsvc-error';

export type K8sErrorCode =
  | 'k8s_cluster_not_found'
  | 'k8s_cluster_exists'
  | 'k8s_ca_bundle_invalid'
  | 'k8s_server_url_invalid'
  | 'k8s_client_certificate_required'
  | 'k8s_client_certificate_invalid'
  | 'k8s_client_certificate_expired'
  | 'k8s_client_certificate_revoked'
  | 'k8s_cluster_disabled'
  | 'k8s_prompt_unavailable'
  | 'k8s_public_key_invalid';

const MESSAGES: Record<K8sErrorCode, string> = {
  k8s_cluster_not_found: 'Kubernetes cluster not found',
  k8s_cluster_exists: 'a Kubernetes cluster with this name exists',
  k8s_ca_bundle_invalid: 'ca_bundle must hold one or more PEM certificates',
  k8s_server_url_invalid: 'server_url must be an https URL without credentials, query or fragment',
  k8s_client_certificate_required:
    'present your user_mtls client certificate of this service (mutual TLS)',
  k8s_client_certificate_invalid:
    'the client certificate is not a user_mtls certificate issued by this service',
  k8s_client_certificate_expired: 'the client certificate has expired',
  k8s_client_certificate_revoked: 'the client certificate has been revoked',
  k8s_cluster_disabled: 'this Kubernetes cluster is disabled',
  k8s_prompt_unavailable:
    'cluster access needs a person to confirm and this session cannot ask (no terminal or graphical session)',
  k8s_public_key_invalid: 'public_key must be a PEM SubjectPublicKeyInfo (EC P-256/P-384 or RSA)',
};

/** Errors of the cluster registry and the credential broker. */
export class K8sError extends CertsvcError<K8sErrorCode> {
  constructor(code: K8sErrorCode) {
    super(code, MESSAGES[code]);
  }
}
