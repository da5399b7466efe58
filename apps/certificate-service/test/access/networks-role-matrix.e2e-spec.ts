import { startTestApp } from '../support/test-app';
import { NETWORKS_ROWS } from './matrices/networks.matrix';
import { itDeclaresEveryRow, runRoleMatrix } from './matrices/run-role-matrix';

describe('Role matrix - networks', () => {
  const matrix = runRoleMatrix(NETWORKS_ROWS, {
    startApp: () => startTestApp(),
    name: 'template',
    allowedBelow500: true,
  });
  itDeclaresEveryRow(matrix, NETWORKS_ROWS);
});
