import { createServer, connect, type Server, type Socket } from 'node:net';

/** A loopback TCP proxy to Redis that a test can cut, to simulate Redis going away. */
export class TcpProxy {
  private server?: Server;
  private readonly sockets = new Set<Socket>();

  constructor(
    private readonly targetPort: number,
    readonly port: number,
  ) {}

  start(): Promise<void> {
    const server = createServer((client) => {
      const upstream = connect(this.targetPort, '127.0.0.1');
      for (const socket of [client, upstream]) {
        this.sockets.add(socket);
        socket.on('close', () => this.sockets.delete(socket));
        socket.on('error', () => socket.destroy());
      }
      client.pipe(upstream).pipe(client);
    });
    this.server = server;
    return new Promise((resolve) => server.listen(this.port, '127.0.0.1', resolve));
  }

  /** Stops listening and cuts every open connection. */
  stop(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    const server = this.server;
    if (!server) return Promise.resolve();
    this.server = undefined;
    return new Promise((resolve) => server.close(() => resolve()));
  }
}
