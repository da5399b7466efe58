import { startTestApp } from '../support/test-app';
import { PKI_SETTINGS_ROWS } from './matrices/pki-settings.matrix';
import { itDeclaresEveryRow, runRoleMatrix } from './matrices/run-role-matrix';

describe('Role matrix - published CRLs and CA certificates, agent-update settings', () => {
  const matrix = runRoleMatrix(PKI_SETTINGS_ROWS, {
    startApp: () => startTestApp(),
    name: 'template',
    allowedBelow500: true,
  });
  itDeclaresEveryRow(matrix, PKI_SETTINGS_ROWS);
});
