import { startEnrollApp } from '../fixtures/enroll';
import { ISSUANCE_ROWS } from './matrices/issuance.matrix';
import { itDeclaresEveryRow, runRoleMatrix } from './matrices/run-role-matrix';

const ROWS = ISSUANCE_ROWS;

describe('Role matrix - approval, issuance, licence, certificates, revocation and stats routes', () => {
  const matrix = runRoleMatrix(ROWS, {
    startApp: () => startEnrollApp(),
    name: 'template',
    allowedBelow500: true,
  });
  itDeclaresEveryRow(matrix, ROWS);
});
