import { Inject, Injectable, Logger, type OnModuleDestroy } from '@nestjs/common';
import { createSecureContext, rootCertificates, type SecureContext } from 'node:tls';
import { FINDINGS_CONFIG } from '../../app/config/config.tokens';
import type { FindingsConfig } from '../../app/config/findings-config';
import type { SmtpServer } from './mail-settings';
import { type ComposedMessage, composeMessage } from './smtp-message';
import { SmtpPool } from './smtp-pool';
import type { SmtpTarget } from './smtp-target';

/** One message as it goes on the wire (composed by smtp-message.ts). */
export type OutgoingMessage = ComposedMessage;

/** The mail server answered with a refusal or could not be reached. */
export class SmtpSendFailed extends Error {
  constructor(
    message: string,
    /** The server refused the message for good (5xx), as opposed to a temporary failure. */
    readonly permanent: boolean,
  ) {
    super(message);
    this.name = 'SmtpSendFailed';
  }
}

interface Pool {
  transport: SmtpPool;
  /** The password the pool's sessions authenticate with (compared, never logged). */
  password: string | undefined;
  timer?: NodeJS.Timeout;
}

/**
 * Pooled SMTP sessions (smtp-pool.ts, smtp-connection.ts: PIPELINING when offered, one write
 * per message's envelope), one pool per (address, port, account, TLS mode): at most
 * SMTP_POOL_CONNECTIONS connections each, closed after SMTP_POOL_IDLE_SECONDS unused.
 * Certificates are always verified against the configured host name (system CAs plus
 * SMTP_CA_FILE); `starttls` requires the upgrade (a server without STARTTLS is refused, no
 * plain fallback); `tls` is TLS from the first byte; `none` is plain text (warned once per host).
 */
@Injectable()
export class SmtpTransports implements OnModuleDestroy {
  private readonly logger = new Logger('Mail');
  private readonly pools = new Map<string, Pool>();
  private readonly warnedPlain = new Set<string>();
  /**
   * One TLS context for every connection of every pool: built once from the system CAs plus
   * SMTP_CA_FILE. Building it per connection (what `tls.ca` does) parsed ~140 certificates
   * each time, a millisecond-scale cost every time a pooled connection is replaced.
   */
  private readonly secureContext: SecureContext;

  constructor(@Inject(FINDINGS_CONFIG) private readonly config: FindingsConfig) {
    const ca = config.mail.caPem ? [...rootCertificates, config.mail.caPem] : undefined;
    this.secureContext = createSecureContext({ minVersion: 'TLSv1.2', ...(ca ? { ca } : {}) });
  }

  async send(server: SmtpServer, target: SmtpTarget, message: OutgoingMessage): Promise<void> {
    if (server.tlsMode === 'none' && !this.warnedPlain.has(server.host)) {
      this.warnedPlain.add(server.host);
      this.logger.warn(
        { host: server.host, port: server.port },
        'mail server configured with smtp_tls_mode none: messages and credentials travel unencrypted',
      );
    }
    const pool = this.pool(server, target);
    try {
      await pool.transport.send(message.from, message.to, composeMessage(message));
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      const text = (error as Error).message ?? String(error);
      throw new SmtpSendFailed(
        `${server.host}:${server.port}: ${text.slice(0, 300)}`,
        typeof code === 'number' && code >= 500 && code < 600,
      );
    } finally {
      this.touch(pool, this.keyOf(server, target));
    }
  }

  onModuleDestroy(): void {
    for (const pool of this.pools.values()) {
      clearTimeout(pool.timer);
      pool.transport.close();
    }
    this.pools.clear();
  }

  private keyOf(server: SmtpServer, target: SmtpTarget): string {
    return [target.address, target.port, server.host, server.username ?? '', server.tlsMode].join(
      '\u0000',
    );
  }

  private pool(server: SmtpServer, target: SmtpTarget): Pool {
    const key = this.keyOf(server, target);
    const existing = this.pools.get(key);
    // A changed password makes a new pool (the key holds no secret; compare on the side).
    if (existing && existing.password === server.password) return existing;
    if (existing) {
      clearTimeout(existing.timer);
      existing.transport.close();
    }
    const { timeoutMs, poolConnections } = this.config.mail;
    const transport = new SmtpPool(
      {
        address: target.address,
        port: target.port,
        ...(target.servername ? { servername: target.servername } : {}),
        tlsMode: server.tlsMode,
        username: server.username,
        password: server.username ? (server.password ?? '') : undefined,
        secureContext: this.secureContext,
        timeoutMs,
        name: 'findings-service',
      },
      poolConnections,
    );
    const pool: Pool = { transport, password: server.password };
    this.pools.set(key, pool);
    return pool;
  }

  private touch(pool: Pool, key: string): void {
    clearTimeout(pool.timer);
    pool.timer = setTimeout(() => {
      if (this.pools.get(key) === pool) this.pools.delete(key);
      pool.transport.close();
    }, this.config.mail.poolIdleSeconds * 1000);
    pool.timer.unref();
  }
}
