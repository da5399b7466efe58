import { createServer } from 'node:net';

/**
 * Ports handed to child processes come from below the kernel's ephemeral range
 * (32768-60999 on Linux), so no outgoing connection and no `listen(0)` of a
 * stand-in can take one between the probe here and the child's own bind.
 * Each Jest worker (or, outside Jest, each process) gets its own slice, and a
 * port is handed out at most once per slice walk, so two servers started one
 * after the other in one test never receive the same number.
 */
const RANGE_START = 20_000;
const SLICE = 500;
const SLICES = 24; // 20 000 - 31 999

let cursor: number | undefined;

function sliceStart(): number {
  const worker = Number(process.env['JEST_WORKER_ID']);
  const index =
    Number.isInteger(worker) && worker > 0 ? (worker - 1) % SLICES : process.pid % SLICES;
  return RANGE_START + index * SLICE;
}

function nextCandidate(): number {
  const start = sliceStart();
  if (cursor === undefined) cursor = Math.floor(Math.random() * SLICE);
  const port = start + (cursor % SLICE);
  cursor += 1;
  return port;
}

function probe(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.unref();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/** A TCP port on 127.0.0.1 that is free now and that this process has not handed out before. */
export async function freePort(): Promise<number> {
  for (let tries = 0; tries < SLICE; tries++) {
    const port = nextCandidate();
    if (await probe(port)) return port;
  }
  throw new Error(`no free port in ${sliceStart()}-${sliceStart() + SLICE - 1}`);
}
