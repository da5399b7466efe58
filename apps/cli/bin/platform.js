#!/usr/bin/env node
// The `platform` command from a clone, no build step and no npx:
//   node apps/cli/bin/platform.js --help
// The TypeScript sources are compiled as they are loaded, with @swc/core directly (a
// require hook for .ts files). Not @swc-node/register like the benches: that loads the
// TypeScript compiler too, ~50 MB more resident memory in a command that must stay small
// while it streams a large report.
'use strict';
const { readFileSync } = require('node:fs');
const { transformSync } = require('@swc/core');

require.extensions['.ts'] = function compileTs(module, filename) {
  const { code } = transformSync(readFileSync(filename, 'utf8'), {
    filename,
    jsc: { target: 'es2022', parser: { syntax: 'typescript' } },
    module: { type: 'commonjs' },
    sourceMaps: false,
  });
  module._compile(code, filename);
};

require('../src/main.ts');
