import { itDeclaresEveryRow, runRoleMatrix } from './matrices/run-role-matrix';
import { SSH_ROWS } from './matrices/ssh.matrix';
import { startTestApp } from '../support/test-app';

const ROWS = SSH_ROWS;

describe('Role matrix - SSH CA, KRL and SSH enrollment', () => {
  const matrix = runRoleMatrix(ROWS, {
    startApp: () => startTestApp(),
    name: 'template',
    allowedBelow500: true,
  });
  itDeclaresEveryRow(matrix, ROWS);
});
