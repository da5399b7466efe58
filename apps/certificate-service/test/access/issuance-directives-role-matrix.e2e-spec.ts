import { startTestApp } from '../support/test-app';
import { ISSUANCE_DIRECTIVES_ROWS } from './matrices/issuance-directives.matrix';
import { itDeclaresEveryRow, runRoleMatrix } from './matrices/run-role-matrix';

describe('Role matrix - issuance directives', () => {
  const matrix = runRoleMatrix(ISSUANCE_DIRECTIVES_ROWS, {
    startApp: () => startTestApp(),
    name: 'template',
    allowedBelow500: true,
  });
  itDeclaresEveryRow(matrix, ISSUANCE_DIRECTIVES_ROWS);
});
