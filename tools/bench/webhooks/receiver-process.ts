/**
 * The bench's webhook receiver, in a process of its own (so it does not share the delivery
 * worker's event loop): answers every POST 200 `{}` after reading the body, counts requests and
 * distinct X-Certsvc-Delivery ids, and reports them on stdin commands:
 * `count` prints `{"requests":n,"deliveries":n}`. Prints `{"port":n}` once listening.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

let requests = 0;
const deliveries = new Set<string>();
const server = createServer((req, res) => {
  req.on('data', () => undefined);
  req.on('end', () => {
    requests += 1;
    const id = req.headers['x-certsvc-delivery'];
    if (typeof id === 'string') deliveries.add(id);
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': '2' });
    res.end('{}');
  });
});
server.keepAliveTimeout = 5000;
server.maxRequestsPerSocket = 0;
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`${JSON.stringify({ port: (server.address() as AddressInfo).port })}\n`);
});
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk: string) => {
  for (const line of chunk.split('\n')) {
    if (line.trim() === 'count') {
      process.stdout.write(`${JSON.stringify({ requests, deliveries: deliveries.size })}\n`);
    } else if (line.trim() === 'reset') {
      requests = 0;
      deliveries.clear();
      process.stdout.write(`${JSON.stringify({ reset: true })}\n`);
    }
  }
});
process.stdin.on('end', () => server.close(() => process.exit(0)));
