// deploy/: the Helm chart checks (test/*.e2e-spec.ts) with real Helm.
module.exports = {
  ...require('../jest.preset.js'),
  displayName: 'deploy',
  rootDir: __dirname,
};
