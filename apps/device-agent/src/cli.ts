#!/usr/bin/env node
// Entry of the one-file bundle (`npx nx run device-agent:build` ->
// dist/apps/device-agent/main.js): runs a command and sets the exit code.
import { main } from './main';

void main(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
