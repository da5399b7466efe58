import { startEnrollApp } from '../fixtures/enroll';
import { itDeclaresEveryRow, runRoleMatrix } from './matrices/run-role-matrix';
import { SSH_KEYHOLDER_ROWS } from './matrices/ssh-keyholder.matrix';

const ROWS = SSH_KEYHOLDER_ROWS;

describe('Role matrix - SSH key registry, principal aliases, key-holder API, system settings', () => {
  // Allowed callers must get below 500 too: the key-holder rows run their real queries.
  const matrix = runRoleMatrix(ROWS, {
    startApp: () => startEnrollApp(),
    name: 'template',
    allowedBelow500: true,
  });
  itDeclaresEveryRow(matrix, ROWS);
});
