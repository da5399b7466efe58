import { READERS } from './callers';
import type { RoleMatrixRow } from './run-role-matrix';

const row = (template: string, allowed: RoleMatrixRow['allowed']): RoleMatrixRow => ({
  method: 'get',
  template,
  path: template,
  allowed,
});

/**
 * What relying parties fetch (CRLs named by the distribution points, CA certificates and the
 * OCSP responder named by AIA): public, no token looked at. The agent-update views: readable by every admin role
 * (specification, "Readable by every admin role ... agent-update list"), not by a service
 * account.
 */
export const PKI_SETTINGS_ROWS: RoleMatrixRow[] = [
  row('/pki/issuing-ca.crl', 'public'),
  row('/pki/root-ca.crl', 'public'),
  row('/pki/issuing-ca.crt', 'public'),
  row('/pki/root-ca.crt', 'public'),
  { method: 'post', template: '/pki/ocsp', path: '/pki/ocsp', allowed: 'public' },
  { method: 'get', template: '/pki/ocsp/*', path: '/pki/ocsp/MAA%3D', allowed: 'public' },
  row('/api/v1/settings/agent-update/stuck', READERS),
  row('/api/v1/settings/platform-update', READERS),
];
