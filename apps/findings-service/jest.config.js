const preset = require('../../jest.preset.js');

// ESM-only packages: content-disposition (via @fastify/static, which serves the Swagger UI)
// and json-schema-ref-parser (via @apidevtools/swagger-parser in the OpenAPI test). Node 20
// can require() them; Jest cannot, so they are compiled to CommonJS.
const esmPackages = ['@apidevtools/json-schema-ref-parser', 'content-disposition'];

module.exports = {
  ...preset,
  displayName: 'findings-service',
  rootDir: __dirname,
  transform: {
    ...preset.transform,
    [`/node_modules/(${esmPackages.join('|')})/.+\\.js$`]: [
      '@swc/jest',
      { jsc: { target: 'es2022' }, module: { type: 'commonjs' } },
    ],
  },
  transformIgnorePatterns: [`/node_modules/(?!(${esmPackages.join('|')})/)`],
};
