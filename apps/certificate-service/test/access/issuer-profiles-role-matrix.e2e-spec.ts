import { startTestApp } from '../support/test-app';
import { ISSUER_PROFILES_ROWS } from './matrices/issuer-profiles.matrix';
import { itDeclaresEveryRow, runRoleMatrix } from './matrices/run-role-matrix';

describe('Role matrix - issuer profiles (settings/issuers)', () => {
  const matrix = runRoleMatrix(ISSUER_PROFILES_ROWS, {
    startApp: () => startTestApp({ env: { CERTSVC_SCEP_ENC_KEY: '24'.repeat(32) } }),
    name: 'template',
    allowedBelow500: true,
  });
  itDeclaresEveryRow(matrix, ISSUER_PROFILES_ROWS);
});
