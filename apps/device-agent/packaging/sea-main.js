'use strict';
// Entry of the single executable (`nx run device-agent:package` -> dist/device-agent/certsvc-agent):
// the agent's own main() (src/main.ts), plus `--version`, which only the packaged program has
// (it names the version it was built as and the Node.js runtime built into it).
// AGENT_VERSION is the workspace's package.json version, put in by webpack.sea.config.js.
/* global AGENT_VERSION */
const { main } = require('../src/main');

const argv = process.argv.slice(2);
if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) {
  process.stdout.write(
    `certsvc-agent ${AGENT_VERSION} (Node.js ${process.version}, ${process.platform}-${process.arch}, single executable)\n`,
  );
} else {
  main(argv).then(
    (code) => {
      process.exitCode = code;
    },
    (error) => {
      // main() reports its own failures; this is the last guard: one line, no stack trace.
      process.stderr.write(`certsvc-agent: internal error: ${error && error.message}\n`);
      process.exitCode = 1;
    },
  );
}
