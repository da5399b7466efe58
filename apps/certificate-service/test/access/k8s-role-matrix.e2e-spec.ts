import { startTestApp } from '../support/test-app';
import { K8S_ROWS } from './matrices/k8s.matrix';
import { itDeclaresEveryRow, runRoleMatrix } from './matrices/run-role-matrix';

describe('Role matrix - Kubernetes cluster registry', () => {
  const matrix = runRoleMatrix(K8S_ROWS, {
    startApp: () => startTestApp(),
    name: 'template',
    allowedBelow500: true,
  });
  itDeclaresEveryRow(matrix, K8S_ROWS);
});
