import { run } from './cli';

// `platform findings list | head -1`: a reader that went away is no error of ours.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE')
      process.exit(typeof process.exitCode === 'number' ? process.exitCode : 0);
    throw error;
  });
}

void run(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  stdin: process.stdin,
  env: process.env,
}).then((code) => {
  process.exitCode = code;
});
