import { CertsvcError } from '../../app/errors/certsvc-error';
import { certsvcErrorMessage } from '../../app/errors/error-messages';

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

/** Errors of the cluster registry and the credential broker. */
export class K8sError extends CertsvcError<K8sErrorCode> {
  constructor(code: K8sErrorCode) {
    super(code, certsvcErrorMessage(code));
  }
}
