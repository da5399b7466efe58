import { startEnrollApp } from '../fixtures/enroll';
import { DEVICES_ENROLLMENT_ROWS } from './matrices/devices-enrollment.matrix';
import { itDeclaresEveryRow, runRoleMatrix } from './matrices/run-role-matrix';

const ROWS = DEVICES_ENROLLMENT_ROWS;

describe('Role matrix - enrollment, agent, requests listing, devices and settings routes', () => {
  // `agent` rows: every caller gets 401 agent_unauthorized (see RoleMatrixRow).
  const matrix = runRoleMatrix(ROWS, { startApp: () => startEnrollApp(), name: 'template' });
  itDeclaresEveryRow(matrix, ROWS);
});
