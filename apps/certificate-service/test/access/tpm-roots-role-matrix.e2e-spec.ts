import { startTestApp } from '../support/test-app';
import { TPM_ROOTS_ROWS } from './matrices/tpm-roots.matrix';
import { itDeclaresEveryRow, runRoleMatrix } from './matrices/run-role-matrix';

describe('Role matrix - TPM vendor roots', () => {
  const matrix = runRoleMatrix(TPM_ROOTS_ROWS, {
    startApp: () => startTestApp(),
    name: 'template',
    allowedBelow500: true,
  });
  itDeclaresEveryRow(matrix, TPM_ROOTS_ROWS);
});
