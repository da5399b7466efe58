import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TLSSocket } from 'node:tls';
import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnModuleDestroy,
} from '@nestjs/common';
import { DomainError } from '@platform/errors';
import { toPem } from '@platform/pki';
import { CERTSVC_CONFIG, type CertsvcConfig } from '../../app/config/certsvc-config';
import { certsvcErrorStatuses } from '../../app/errors/error-status';
import { IssuerRegistry } from '../ca/issuer-registry';
import { K8sCredentialService, type PresentedCertificate } from './k8s-credential.service';

export const K8S_CREDENTIAL_PATH = '/api/v1/k8s/credential';
const MAX_BODY_BYTES = 64 * 1024;

class BrokerRefusal extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

function presentedCertificate(socket: TLSSocket): PresentedCertificate {
  const peer = socket.getPeerCertificate();
  if (!peer || !peer.raw) return { chainVerified: false };
  const error = socket.authorizationError as unknown;
  return {
    der: peer.raw,
    serial: peer.serialNumber,
    chainVerified: socket.authorized,
    verifyError:
      typeof error === 'string' ? error : error instanceof Error ? error.message : undefined,
  };
}

async function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  const type = (req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
  if (type !== 'application/json') {
    throw new BrokerRefusal(415, 'unsupported_media_type', 'send application/json');
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) {
      throw new BrokerRefusal(413, 'payload_too_large', 'request body too large');
    }
    chunks.push(chunk);
  }
  let body: unknown;
  try {
    body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    throw new BrokerRefusal(400, 'invalid_request', 'body is not JSON');
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new BrokerRefusal(400, 'invalid_request', 'body must be a JSON object');
  }
  return body as Record<string, unknown>;
}

function field(body: Record<string, unknown>, name: string, max: number): string {
  const value = body[name];
  if (typeof value !== 'string' || value.length === 0 || value.length > max) {
    throw new BrokerRefusal(400, 'invalid_request', `${name} must be a string of 1-${max}`);
  }
  return value;
}

/**
 * The mutual-TLS listener of the credential broker (`CERTSVC_K8S_BROKER_URL`), started by the
 * API process next to its HTTP port. Server certificate and key come from files; client
 * certificates are requested and verified against the service's built-in CA (issuing + root),
 * then checked against the service's own certificate records. One route: `POST
 * /api/v1/k8s/credential`; everything else answers 404. Not part of the OpenAPI document.
 */
@Injectable()
export class K8sBrokerServer implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('K8sBrokerServer');
  private server: Server | undefined;
  /** Calls answered (any status): tests and the bench count broker round trips with it. */
  requests = 0;
  /** TLS connections that resumed an earlier session (session ticket) instead of a full handshake. */
  resumedSessions = 0;

  constructor(
    @Inject(CERTSVC_CONFIG) private readonly config: CertsvcConfig,
    private readonly issuers: IssuerRegistry,
    private readonly credentials: K8sCredentialService,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const broker = this.config.k8s.broker;
    if (!broker) return;
    const server = createServer(
      {
        cert: readFileSync(broker.tlsCertFile),
        key: readFileSync(broker.tlsKeyFile),
        ca: this.issuers.builtInChain().map((der) => toPem('CERTIFICATE', der)),
        requestCert: true,
        rejectUnauthorized: false,
        minVersion: 'TLSv1.2',
      },
      (req, res) => void this.handle(req, res),
    );
    server.on('secureConnection', (socket: TLSSocket) => {
      if (socket.isSessionReused()) this.resumedSessions += 1;
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(broker.port, broker.host, () => {
        server.off('error', reject);
        resolve();
      });
    });
    this.server = server;
    this.logger.log({ url: broker.url, port: this.port() }, 'k8s credential broker listening');
  }

  /** The bound port (tests listen on port 0). */
  port(): number | undefined {
    return (this.server?.address() as AddressInfo | null)?.port;
  }

  async onModuleDestroy(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (!server) return;
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    this.requests += 1;
    // Set once the call is a credential request: its refusals are counted and audited.
    let presented: PresentedCertificate | undefined;
    try {
      const path = (req.url ?? '').split('?')[0];
      if (path !== K8S_CREDENTIAL_PATH) {
        throw new BrokerRefusal(404, 'not_found', 'not found');
      }
      if (req.method !== 'POST') throw new BrokerRefusal(405, 'method_not_allowed', 'use POST');
      presented = presentedCertificate(req.socket as TLSSocket);
      const body = await readJson(req);
      const promptAvailable = body.prompt_available ?? true;
      if (typeof promptAvailable !== 'boolean') {
        throw new BrokerRefusal(400, 'invalid_request', 'prompt_available must be a boolean');
      }
      const issued = await this.credentials.issue(presented, {
        cluster: field(body, 'cluster', 63),
        publicKeyPem: field(body, 'public_key', 16 * 1024),
        promptAvailable,
      });
      this.send(res, 201, {
        user: issued.user,
        groups: issued.groups,
        client_certificate_pem: issued.certificatePem,
        serial: issued.serial,
        not_before: issued.notBefore.toISOString(),
        expires_at: issued.notAfter.toISOString(),
        cluster: {
          name: issued.cluster.name,
          server_url: issued.cluster.serverUrl,
          ca_bundle: issued.cluster.caBundle,
        },
        prompt: issued.prompt,
      });
    } catch (error) {
      if (error instanceof BrokerRefusal) {
        if (presented) await this.credentials.refused(presented, error.code);
        this.send(res, error.status, { code: error.code, message: error.message });
      } else if (error instanceof DomainError) {
        // Counted and audited by K8sCredentialService.issue.
        this.send(res, certsvcErrorStatuses.statusOf(error.code), {
          code: error.code,
          message: error.message,
        });
      } else {
        this.logger.error({ err: error }, 'k8s credential broker failed');
        // Never throws: the audit write swallows its own failures (AuditService.recordMany).
        if (presented) await this.credentials.refused(presented, 'internal_error');
        this.send(res, 500, { code: 'internal_error', message: 'internal error' });
      }
    }
  }

  private send(res: ServerResponse, status: number, body: unknown): void {
    const text = JSON.stringify(body);
    res.writeHead(status, {
      'content-type': 'application/json; charset=utf-8',
      'content-length': Buffer.byteLength(text),
      'cache-control': 'no-store',
    });
    res.end(text);
  }
}
