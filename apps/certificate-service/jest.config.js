const preset = require('../../jest.preset.js');

// ESM-only packages reached through @fastify/static (Swagger UI assets) and swagger-parser: Node 20.19+ loads
// them with require(esm), Jest does not, so @swc/jest compiles them to CommonJS.
const esmPackages = ['content-disposition', '@apidevtools/json-schema-ref-parser'];
const swc = preset.transform['^.+\\.ts$'];

module.exports = {
  ...preset,
  displayName: 'certificate-service',
  rootDir: __dirname,
  transform: {
    ...preset.transform,
    [`/node_modules/(${esmPackages.join('|')})/.+\\.js$`]: swc,
  },
  transformIgnorePatterns: [`/node_modules/(?!(${esmPackages.join('|')})/)`],
};
