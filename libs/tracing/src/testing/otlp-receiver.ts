import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One span as an OTLP/HTTP JSON export carries it (ids in hex). */
export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes: Record<string, string | number | boolean>;
  status?: { code?: number; message?: string };
  /** `service.name` and the other resource attributes of the exporting process. */
  resource: Record<string, string | number | boolean>;
}

interface OtlpKeyValue {
  key: string;
  value: {
    stringValue?: string;
    intValue?: string | number;
    boolValue?: boolean;
    doubleValue?: number;
  };
}

interface OtlpExport {
  resourceSpans?: {
    resource?: { attributes?: OtlpKeyValue[] };
    scopeSpans?: {
      spans?: (Omit<ReceivedSpan, 'attributes' | 'resource'> & { attributes?: OtlpKeyValue[] })[];
    }[];
  }[];
}

function attributesOf(list: OtlpKeyValue[] | undefined): Record<string, string | number | boolean> {
  const out: Record<string, string | number | boolean> = {};
  for (const { key, value } of list ?? []) {
    const v = value.stringValue ?? value.boolValue ?? value.doubleValue ?? value.intValue;
    if (v !== undefined)
      out[key] = typeof v === 'string' && value.intValue !== undefined ? Number(v) : v;
  }
  return out;
}

/**
 * A loopback OTLP/HTTP receiver for tests: accepts JSON exports on `POST /v1/traces` (what
 * `@opentelemetry/exporter-trace-otlp-http` sends) and keeps the decoded spans.
 */
export class OtlpReceiver {
  readonly spans: ReceivedSpan[] = [];
  /** Requests that were not a JSON trace export (content type, path), for assertions. */
  readonly refused: string[] = [];

  private readonly server: Server;
  private endpointUrl = '';

  private constructor() {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const type = req.headers['content-type'] ?? '';
        if (req.method !== 'POST' || req.url !== '/v1/traces' || !type.includes('json')) {
          this.refused.push(`${req.method} ${req.url} ${type}`);
          res.writeHead(404).end();
          return;
        }
        try {
          this.accept(JSON.parse(Buffer.concat(chunks).toString('utf8')) as OtlpExport);
        } catch {
          this.refused.push(`${req.method} ${req.url} unreadable JSON`);
          res.writeHead(400).end();
          return;
        }
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
  }

  /** Base address for OTEL_EXPORTER_OTLP_ENDPOINT (`http://127.0.0.1:<port>`). */
  get endpoint(): string {
    return this.endpointUrl;
  }

  static async start(): Promise<OtlpReceiver> {
    const receiver = new OtlpReceiver();
    receiver.server.listen(0, '127.0.0.1');
    await once(receiver.server, 'listening');
    const { port } = receiver.server.address() as AddressInfo;
    receiver.endpointUrl = `http://127.0.0.1:${port}`;
    return receiver;
  }

  /** Spans of one trace. */
  trace(traceId: string): ReceivedSpan[] {
    return this.spans.filter((s) => s.traceId === traceId);
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private accept(body: OtlpExport): void {
    for (const rs of body.resourceSpans ?? []) {
      const resource = attributesOf(rs.resource?.attributes);
      for (const ss of rs.scopeSpans ?? []) {
        for (const span of ss.spans ?? []) {
          this.spans.push({
            ...span,
            parentSpanId: span.parentSpanId || undefined,
            attributes: attributesOf(span.attributes),
            resource,
          });
        }
      }
    }
  }
}
