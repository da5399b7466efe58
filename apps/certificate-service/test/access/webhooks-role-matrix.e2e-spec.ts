import { startTestApp } from '../support/test-app';
import { WEBHOOKS_ROWS } from './matrices/webhooks.matrix';
import { itDeclaresEveryRow, runRoleMatrix } from './matrices/run-role-matrix';

describe('Role matrix - outgoing webhooks', () => {
  const matrix = runRoleMatrix(WEBHOOKS_ROWS, {
    startApp: () =>
      startTestApp({
        env: { CERTSVC_WEBHOOKS_ENABLED: 'true', CERTSVC_WEBHOOK_ENC_KEY: '77'.repeat(32) },
      }),
    name: 'template',
    allowedBelow500: true,
  });
  itDeclaresEveryRow(matrix, WEBHOOKS_ROWS);
});
