import { startEnrollApp } from '../fixtures/enroll';
import { IDENTITY_SID_ROWS } from './matrices/identity-sid.matrix';
import { itDeclaresEveryRow, runRoleMatrix } from './matrices/run-role-matrix';

describe('Role matrix - identity SID look-ups and their directory setting', () => {
  const matrix = runRoleMatrix(IDENTITY_SID_ROWS, {
    startApp: () => startEnrollApp({ env: { CERTSVC_SCEP_ENC_KEY: '5a'.repeat(32) } }),
    name: 'template',
    allowedBelow500: true,
  });
  itDeclaresEveryRow(matrix, IDENTITY_SID_ROWS);
});
