/**
 * Where the query bench's API process allocates, from the sampling heap profile
 * BENCH_SERVER_HEAP_PROFILE=<file> writes (server-process.ts: garbage included, i.e. objects
 * the collector has freed since):
 *
 *   SWC_NODE_PROJECT=tsconfig.base.json node -r @swc-node/register \
 *     tools/bench/query/heap-profile-summary.ts <requests in the profile> <file.heapprofile>
 *
 * Prints bytes per request: by the package or folder of the allocating function, the inclusive
 * allocation of named steps (any file), and the heaviest allocating functions.
 */
import { readFileSync } from 'node:fs';
import { frameKey, REQUEST_STEPS } from './profile-frames';

interface HeapNode {
  callFrame: { functionName: string; url: string; lineNumber: number };
  selfSize: number;
  children: HeapNode[];
}

function placeOf(url: string, fn: string): string {
  if (!url) return fn.startsWith('(') ? fn : '(native / builtins)';
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1];
  const own = /\/(apps\/[^/]+\/src\/(?:modules\/)?[^/]+|libs\/[^/]+|tools\/[^/]+)/.exec(url);
  if (own) return own[1];
  return url.startsWith('node:') ? 'node internals' : url;
}

function summarize(file: string, requests: number): void {
  const { head } = JSON.parse(readFileSync(file, 'utf8')) as { head: HeapNode };
  const places = new Map<string, number>();
  const self = new Map<string, number>();
  const steps = new Map<string, number>();
  let total = 0;
  const walk = (node: HeapNode, onStack: string[]): void => {
    const { functionName, url } = node.callFrame;
    const stack =
      REQUEST_STEPS.includes(functionName) && !onStack.includes(functionName)
        ? [...onStack, functionName]
        : onStack;
    if (node.selfSize > 0) {
      total += node.selfSize;
      const place = placeOf(url, functionName);
      places.set(place, (places.get(place) ?? 0) + node.selfSize);
      const key = frameKey(node.callFrame);
      self.set(key, (self.get(key) ?? 0) + node.selfSize);
      for (const step of stack) steps.set(step, (steps.get(step) ?? 0) + node.selfSize);
    }
    for (const child of node.children) walk(child, stack);
  };
  walk(head, []);
  const kb = (v: number): string => (v / 1024 / requests).toFixed(1).padStart(8);
  console.log(`\n## ${file}: ${kb(total)} KB allocated per request (${requests} requests)`);
  for (const [place, v] of [...places].sort((a, b) => b[1] - a[1]).slice(0, 25))
    console.log(`${kb(v)}  ${place}`);
  console.log('  inclusive (function name, any file):');
  for (const [fn, v] of [...steps].sort((a, b) => b[1] - a[1])) console.log(`${kb(v)}    ${fn}`);
  console.log('  heaviest self:');
  for (const [fn, v] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 40))
    console.log(`${kb(v)}    ${fn}`);
}

const [requestsArg, file] = process.argv.slice(2);
const requests = Number(requestsArg);
if (!requests || !file)
  throw new Error('usage: heap-profile-summary.ts <requests in the profile> <file.heapprofile>');
summarize(file, requests);
