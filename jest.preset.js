// Shared Jest settings for every project: @swc/jest transform (keeps decorator metadata),
// path aliases from tsconfig.base.json, Node environment.
const path = require('node:path');
const { compilerOptions } = require('./tsconfig.base.json');

const moduleNameMapper = {};
for (const [alias, [target]] of Object.entries(compilerOptions.paths)) {
  moduleNameMapper[`^${alias.replace('/', '\\/')}$`] = path.join(__dirname, target);
}

// ESM-only packages reached at run time (content-disposition via @fastify/static for the
// Swagger UI, json-schema-ref-parser via swagger-parser, the OIDC relying party's
// openid-client with oauth4webapi and jose). Node 20.19 require()s them; Jest cannot, so
// @swc/jest compiles them to CommonJS. The OTLP exporter base is CommonJS but loads node:http
// with import() when it first sends, which Jest refuses without --experimental-vm-modules;
// compiled, the import() is a require().
const esmPackages = [
  'content-disposition',
  '@apidevtools/json-schema-ref-parser',
  'openid-client',
  'oauth4webapi',
  'jose',
  '@opentelemetry/otlp-exporter-base',
];

module.exports = {
  // Node's environment plus an audit naming any test file that leaves a process, server or
  // thread behind (tools/test/leak-audit-environment.js).
  testEnvironment: path.join(__dirname, 'tools/test/leak-audit-environment.js'),
  // Per test and per hook. Jest's 5 s default is shorter than an e2e file's set-up on a loaded
  // 2-core machine (a Nest boot is ~1 s alone; with the template database clone, migrations and
  // the wasm component builds of other files running beside it, a beforeAll boot passed 30 s at
  // load 12); a test that needs more says so and why.
  testTimeout: 60_000,
  // Jest's runtime with a V8 code cache per worker (tools/test/cached-runtime.js): a module is
  // compiled once per worker, not once per test file (16 findings e2e files: 10.4 -> 5.1 s of
  // compiling). JEST_CODE_CACHE=0 turns it off.
  ...(process.env.JEST_CODE_CACHE === '0'
    ? {}
    : { runtime: path.join(__dirname, 'tools/test/cached-runtime.js') }),
  moduleFileExtensions: ['ts', 'js', 'json'],
  transform: {
    '^.+\\.ts$': [
      '@swc/jest',
      {
        jsc: {
          target: 'es2022',
          parser: { syntax: 'typescript', decorators: true },
          transform: { legacyDecorator: true, decoratorMetadata: true },
          keepClassNames: true,
        },
        module: { type: 'commonjs' },
        sourceMaps: 'inline',
      },
    ],
    [`/node_modules/(${esmPackages.join('|')})/.+\\.js$`]: [
      '@swc/jest',
      { jsc: { target: 'es2022' }, module: { type: 'commonjs' } },
    ],
  },
  moduleNameMapper,
  transformIgnorePatterns: [`/node_modules/(?!(${esmPackages.join('|')})/)`],
  testMatch: ['<rootDir>/src/**/*.spec.ts', '<rootDir>/test/**/*.e2e-spec.ts'],
};
