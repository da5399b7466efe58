import { createSocket, type RemoteInfo, type Socket } from 'node:dgram';
import { dnsServerResolver, type EgressResolver } from '../egress-resolver';
import { parseIpAddress } from '../ip-address';

/** What a name answers on its n-th query of a type (0-based): addresses, or 'drop' (no reply). */
export type ZoneEntry = readonly string[] | ((round: number) => readonly string[] | 'drop');

export interface DnsQuery {
  name: string;
  type: 'A' | 'AAAA' | number;
}

const TYPE_A = 1;
const TYPE_AAAA = 28;

/**
 * A tiny authoritative DNS server on UDP loopback speaking the DNS wire protocol (RFC 1035):
 * A and AAAA answers with TTL 0 from a programmable zone, NXDOMAIN for unknown names,
 * no reply for 'drop'. The guard's resolver is pointed at it, so tests control exactly
 * what every resolution returns — including answers that change from query to query.
 */
export class DnsResponder {
  readonly queries: DnsQuery[] = [];
  private readonly zone = new Map<string, ZoneEntry>();
  private readonly rounds = new Map<string, number>();

  private constructor(
    private readonly socket: Socket,
    readonly port: number,
  ) {
    socket.on('message', (message, peer) => this.answer(message, peer));
  }

  static async start(): Promise<DnsResponder> {
    const socket = createSocket('udp4');
    await new Promise<void>((resolve, reject) => {
      socket.once('error', reject);
      socket.bind(0, '127.0.0.1', () => resolve());
    });
    return new DnsResponder(socket, socket.address().port);
  }

  set(name: string, entry: ZoneEntry): void {
    this.zone.set(name.toLowerCase(), entry);
    for (const key of [...this.rounds.keys()])
      if (key.endsWith(` ${name.toLowerCase()}`)) this.rounds.delete(key);
  }

  /** The guard's resolver, asking only this server. */
  resolver(timeoutMs = 2000): EgressResolver {
    return dnsServerResolver([`127.0.0.1:${this.port}`], { timeoutMs });
  }

  queriesFor(name: string, type: 'A' | 'AAAA'): number {
    return this.queries.filter((q) => q.name === name && q.type === type).length;
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.socket.close(() => resolve()));
  }

  private answer(message: Buffer, peer: RemoteInfo): void {
    const question = parseQuestion(message);
    if (!question) return;
    const typeName =
      question.type === TYPE_A ? 'A' : question.type === TYPE_AAAA ? 'AAAA' : question.type;
    this.queries.push({ name: question.name, type: typeName });
    const entry = this.zone.get(question.name);
    let addresses: readonly string[] | undefined;
    if (typeof entry === 'function') {
      const key = `${String(typeName)} ${question.name}`;
      const round = this.rounds.get(key) ?? 0;
      this.rounds.set(key, round + 1);
      const result = entry(round);
      if (result === 'drop') return;
      addresses = result;
    } else {
      addresses = entry;
    }
    const records: Buffer[] = [];
    for (const text of addresses ?? []) {
      const address = parseIpAddress(text);
      if (!address) throw new Error(`zone holds a non-address: ${text}`);
      const family = question.type === TYPE_A ? 4 : question.type === TYPE_AAAA ? 6 : 0;
      if (address.family !== family) continue;
      const head = Buffer.alloc(12);
      head.writeUInt16BE(0xc00c, 0); // pointer to the question's name
      head.writeUInt16BE(question.type, 2);
      head.writeUInt16BE(1, 4); // class IN
      head.writeUInt32BE(0, 6); // TTL 0: nothing may be cached
      head.writeUInt16BE(address.bytes.length, 10);
      records.push(head, Buffer.from(address.bytes));
    }
    const header = Buffer.alloc(12);
    message.copy(header, 0, 0, 2); // id
    const recursionDesired = message[2] & 0x01;
    header[2] = 0x84 | recursionDesired; // QR, AA
    header[3] = entry === undefined ? 3 : 0; // NXDOMAIN for unknown names
    header.writeUInt16BE(1, 4);
    header.writeUInt16BE(records.length / 2, 6);
    const reply = Buffer.concat([header, question.raw, ...records]);
    this.socket.send(reply, peer.port, peer.address);
  }
}

function parseQuestion(message: Buffer): { name: string; type: number; raw: Buffer } | undefined {
  if (message.length < 12 || message.readUInt16BE(4) !== 1) return undefined;
  const labels: string[] = [];
  let offset = 12;
  while (offset < message.length) {
    const length = message[offset];
    offset += 1;
    if (length === 0) break;
    if (length > 63) return undefined;
    labels.push(message.toString('latin1', offset, offset + length));
    offset += length;
  }
  if (offset + 4 > message.length) return undefined;
  const type = message.readUInt16BE(offset);
  return { name: labels.join('.').toLowerCase(), type, raw: message.subarray(12, offset + 4) };
}
