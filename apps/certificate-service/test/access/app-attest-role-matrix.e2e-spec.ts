import { startEnrollApp } from '../fixtures/enroll';
import { APP_ATTEST_ROWS } from './matrices/app-attest.matrix';
import { itDeclaresEveryRow, runRoleMatrix } from './matrices/run-role-matrix';

describe('Role matrix - app attestation', () => {
  const matrix = runRoleMatrix(APP_ATTEST_ROWS, {
    startApp: () => startEnrollApp(),
    name: 'template',
    allowedBelow500: true,
  });
  itDeclaresEveryRow(matrix, APP_ATTEST_ROWS);
});
