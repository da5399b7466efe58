import { startTestApp } from '../support/test-app';
import { LOG_SNAPSHOTS_ROWS } from './matrices/log-snapshots.matrix';
import { itDeclaresEveryRow, runRoleMatrix } from './matrices/run-role-matrix';

describe('Role matrix - agent log snapshots', () => {
  const matrix = runRoleMatrix(LOG_SNAPSHOTS_ROWS, {
    startApp: () => startTestApp(),
    name: 'template',
    allowedBelow500: true,
  });
  itDeclaresEveryRow(matrix, LOG_SNAPSHOTS_ROWS);
});
