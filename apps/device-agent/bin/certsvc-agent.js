#!/usr/bin/env node
// The reference device agent, run from a clone (no build, no npx):
//   node apps/device-agent/bin/certsvc-agent.js <command> [options]
// TypeScript is compiled on load by @swc-node/register (a dev dependency of the workspace), as
// the benchmarks do. Without a clone or Node: the single executable and the .deb (docs/agent.md,
// "Packaging").
'use strict';
const path = require('node:path');

process.env.SWC_NODE_PROJECT =
  process.env.SWC_NODE_PROJECT || path.join(__dirname, '..', 'tsconfig.json');
require('@swc-node/register');
const { main } = require('../src/main.ts');

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error) => {
    // main() reports its own failures; this is the last guard: one line, no stack trace.
    process.stderr.write(`certsvc-agent: internal error: ${error && error.message}\n`);
    process.exitCode = 1;
  },
);
