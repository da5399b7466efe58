import { CertsvcError } from '../../app/errors/certsvc-error';

export type K8sErrorCode =
  | 'k8s_cluster_not_found'
  | 'k8s_cluster_exists'
  | 'k8s_ca_bundle_invalid'
  | 'k8s_server_url_invalid';

const MESSAGES: Record<K8sErrorCode, string> = {
  k8s_cluster_not_found: 'Kubernetes cluster not found',
  k8s_cluster_exists: 'a Kubernetes cluster with this name exists',
  k8s_ca_bundle_invalid: 'ca_bundle must hold one or more PEM certificates',
  k8s_server_url_invalid: 'server_url must be an https URL without credentials, query or fragment',
};

/** Errors of the cluster registry and the credential broker. */
export class K8sError extends CertsvcError<K8sErrorCode> {
  constructor(code: K8sErrorCode) {
    super(code, MESSAGES[code]);
  }
}
