import { startEnrollApp } from '../fixtures/enroll';
import { TOKEN_RECOVER_ROWS } from './matrices/token-recover.matrix';
import { itDeclaresEveryRow, runRoleMatrix } from './matrices/run-role-matrix';

describe('Role matrix - enrollment token recovery', () => {
  const matrix = runRoleMatrix(TOKEN_RECOVER_ROWS, {
    startApp: () => startEnrollApp(),
    name: 'template',
    allowedBelow500: true,
  });
  itDeclaresEveryRow(matrix, TOKEN_RECOVER_ROWS);
});
