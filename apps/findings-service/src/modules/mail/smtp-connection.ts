import { connect as netConnect, type Socket } from 'node:net';
import { connect as tlsConnect, type SecureContext, type TLSSocket } from 'node:tls';

/** How to reach and greet one mail server. */
export interface SmtpConnectionOptions {
  address: string;
  port: number;
  /** The name the certificate must match; undefined: the certificate must name `address`. */
  servername?: string;
  tlsMode: 'none' | 'starttls' | 'tls';
  username?: string;
  password?: string;
  secureContext: SecureContext;
  timeoutMs: number;
  /** Our EHLO name. */
  name: string;
}

/** A reply other than the expected one (`code`), or the connection failing (`code` 0). */
export class SmtpReplyError extends Error {
  constructor(
    message: string,
    readonly code: number,
  ) {
    super(message);
    this.name = 'SmtpReplyError';
  }
}

interface Reply {
  code: number;
  lines: string[];
}

/**
 * One SMTP client session (RFC 5321): greeting, EHLO, STARTTLS (required in `starttls` mode, no
 * plain fallback), AUTH PLAIN or LOGIN, then any number of messages. With PIPELINING offered
 * (RFC 2920) a message's `MAIL FROM`, every `RCPT TO` and `DATA` go in one write and the
 * replies are read after; without it, one command at a time. Certificates are verified against
 * `servername` (or the address) with the given context.
 */
export class SmtpConnection {
  private socket: Socket | TLSSocket;
  private buffer = '';
  /** The lines of a multi-line reply read so far. */
  private partial: string[] = [];
  private readonly replies: Reply[] = [];
  private readonly waiters: { resolve: (r: Reply) => void; reject: (e: Error) => void }[] = [];
  private failure: Error | undefined;
  private pipelining = false;
  /** Messages sent on this connection. */
  sent = 0;
  /** Whether the last `send` got as far as writing the message's data. */
  dataWritten = false;
  /** Between messages (after the greeting): a reply now is unsolicited. */
  private idle = false;

  private constructor(
    private readonly options: SmtpConnectionOptions,
    socket: Socket | TLSSocket,
  ) {
    this.socket = socket;
    this.attach(socket);
  }

  /** Whether the connection can take another message. */
  get usable(): boolean {
    return !this.failure && !this.socket.destroyed;
  }

  static async open(options: SmtpConnectionOptions): Promise<SmtpConnection> {
    const socket =
      options.tlsMode === 'tls'
        ? tlsConnect({
            host: options.address,
            port: options.port,
            ...(options.servername ? { servername: options.servername } : {}),
            secureContext: options.secureContext,
            rejectUnauthorized: true,
          })
        : netConnect({ host: options.address, port: options.port });
    const connection = new SmtpConnection(options, socket);
    try {
      await connection.greet();
      connection.idle = true;
    } catch (error) {
      connection.close();
      throw error;
    }
    return connection;
  }

  /** Sends one composed, dot-stuffed message; resolves on the server's 250 after the data. */
  async send(from: string, to: string[], data: Buffer): Promise<void> {
    const mail = `MAIL FROM:<${from}>`;
    const rcpts = to.map((r) => `RCPT TO:<${r}>`);
    this.dataWritten = false;
    this.idle = false;
    let mailReply: Reply;
    const answers: Reply[] = [];
    let dataReply: Reply | undefined;
    if (this.pipelining) {
      this.socket.write(`${[mail, ...rcpts, 'DATA'].join('\r\n')}\r\n`);
      mailReply = await this.next();
      for (let i = 0; i < rcpts.length; i += 1) answers.push(await this.next());
      dataReply = await this.next();
    } else {
      this.socket.write(`${mail}\r\n`);
      mailReply = await this.next();
      this.expect(mailReply, 250, 'MAIL FROM');
      for (const rcpt of rcpts) {
        this.socket.write(`${rcpt}\r\n`);
        answers.push(await this.next());
      }
    }
    this.expect(mailReply, 250, 'MAIL FROM');
    const refused = answers.filter((r) => r.code < 200 || r.code >= 300);
    // Some recipients refused: the message goes to the others (as nodemailer does); none: fail.
    if (refused.length > 0 && refused.length === answers.length) {
      this.expect(refused[0] as Reply, 250, 'RCPT TO');
    }
    if (!dataReply) {
      this.socket.write('DATA\r\n');
      dataReply = await this.next();
    }
    this.expect(dataReply, 354, 'DATA');
    this.dataWritten = true;
    this.socket.write(data);
    this.expect(await this.next(), 250, 'message');
    this.sent += 1;
    this.idle = true;
  }

  /** QUIT without waiting, then close. */
  close(): void {
    const socket = this.socket;
    if (!socket.destroyed) {
      if (this.failure) socket.destroy();
      else {
        socket.end('QUIT\r\n');
        setTimeout(() => socket.destroy(), 1000).unref();
      }
    }
    this.fail(new SmtpReplyError('connection closed', 0));
  }

  private async greet(): Promise<void> {
    this.expect(await this.next(), 220, 'greeting');
    let extensions = await this.ehlo();
    if (this.options.tlsMode === 'starttls') {
      if (!extensions.has('STARTTLS')) {
        throw new SmtpReplyError('the server does not offer STARTTLS (smtp_tls_mode starttls)', 0);
      }
      this.socket.write('STARTTLS\r\n');
      this.expect(await this.next(), 220, 'STARTTLS');
      await this.upgrade();
      extensions = await this.ehlo();
    }
    this.pipelining = extensions.has('PIPELINING');
    if (this.options.username) await this.authenticate(extensions);
  }

  private async ehlo(): Promise<Set<string>> {
    this.socket.write(`EHLO ${this.options.name}\r\n`);
    const reply = await this.next();
    this.expect(reply, 250, 'EHLO');
    return new Set(reply.lines.slice(1).map((l) => l.toUpperCase()));
  }

  private async authenticate(extensions: Set<string>): Promise<void> {
    const user = this.options.username ?? '';
    const pass = this.options.password ?? '';
    const auth = [...extensions].find((e) => e.startsWith('AUTH ') || e.startsWith('AUTH=')) ?? '';
    const methods = auth.slice(5).split(/\s+/);
    if (methods.includes('PLAIN') || !methods.includes('LOGIN')) {
      const token = Buffer.from(`\0${user}\0${pass}`, 'utf8').toString('base64');
      this.socket.write(`AUTH PLAIN ${token}\r\n`);
    } else {
      this.socket.write('AUTH LOGIN\r\n');
      this.expect(await this.next(), 334, 'AUTH LOGIN');
      this.socket.write(`${Buffer.from(user, 'utf8').toString('base64')}\r\n`);
      this.expect(await this.next(), 334, 'AUTH LOGIN');
      this.socket.write(`${Buffer.from(pass, 'utf8').toString('base64')}\r\n`);
    }
    this.expect(await this.next(), 235, 'AUTH');
  }

  private upgrade(): Promise<void> {
    const plain = this.socket;
    plain.removeAllListeners('data');
    plain.removeAllListeners('error');
    plain.removeAllListeners('close');
    plain.removeAllListeners('timeout');
    // The TLS socket reports the session's errors from now on; the wrapped one must not throw.
    plain.on('error', () => undefined);
    const secure = tlsConnect({
      socket: plain,
      host: this.options.address,
      ...(this.options.servername ? { servername: this.options.servername } : {}),
      secureContext: this.options.secureContext,
      rejectUnauthorized: true,
    });
    this.socket = secure;
    this.attach(secure);
    return new Promise((resolve, reject) => {
      secure.once('secureConnect', () => resolve());
      secure.once('error', reject);
    });
  }

  private attach(socket: Socket | TLSSocket): void {
    socket.setEncoding('utf8');
    socket.setNoDelay(true);
    socket.setTimeout(this.options.timeoutMs, () =>
      socket.destroy(new SmtpReplyError(`no answer in ${this.options.timeoutMs} ms`, 0)),
    );
    socket.on('data', (chunk: string) => this.receive(chunk));
    socket.on('error', (error: Error) => this.fail(new SmtpReplyError(error.message, 0)));
    socket.on('close', () => this.fail(new SmtpReplyError('the server closed the connection', 0)));
  }

  private receive(chunk: string): void {
    this.buffer += chunk;
    let end: number;
    while ((end = this.buffer.indexOf('\n')) >= 0) {
      const line = this.buffer.slice(0, end).replace(/\r$/, '');
      this.buffer = this.buffer.slice(end + 1);
      this.partial.push(line.slice(4));
      if (line[3] === '-') continue;
      const reply = { code: Number(line.slice(0, 3)) || 0, lines: this.partial };
      this.partial = [];
      const waiter = this.waiters.shift();
      if (waiter) waiter.resolve(reply);
      else if (this.idle) {
        // An idle session spoken to (421 timeout, shutdown): it is going away.
        this.fail(new SmtpReplyError(`idle session closed: ${reply.code}`, 0));
        this.socket.destroy();
      } else this.replies.push(reply);
    }
  }

  private next(): Promise<Reply> {
    const ready = this.replies.shift();
    if (ready) return Promise.resolve(ready);
    if (this.failure) return Promise.reject(this.failure);
    return new Promise((resolve, reject) => this.waiters.push({ resolve, reject }));
  }

  private fail(error: Error): void {
    if (!this.failure) this.failure = error;
    for (const waiter of this.waiters.splice(0)) waiter.reject(this.failure);
  }

  private expect(reply: Reply, code: number, step: string): void {
    if (reply.code === code) return;
    const error = new SmtpReplyError(
      `${step}: ${reply.code} ${reply.lines.join(' ').slice(0, 300)}`,
      reply.code,
    );
    // After a refused envelope the session is in an unknown state: not reused.
    this.fail(error);
    this.socket.destroy();
    throw error;
  }
}
