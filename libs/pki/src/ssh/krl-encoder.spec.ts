import { sshKeygenDumpKrl, sshKeygenKey, sshKeygenQueryKrl } from '../testing/ssh-keygen';
import { encodeKrl, type KrlInput } from './krl-encoder';
import { generateSshCaMaterial, SshUserCa } from './ssh-ca';
import { formatSshCertificate } from './ssh-certificate';
import { parseSshPublicKey } from './ssh-public-key';

const kek = Buffer.alloc(32, 3);
const ca = SshUserCa.open(generateSshCaMaterial(kek), kek);
const subject = parseSshPublicKey(sshKeygenKey('ed25519').publicKey);
const now = new Date();

function cert(serial: bigint, keyId = `id-${serial}`): string {
  return formatSshCertificate(
    ca.issue({
      publicKey: subject,
      serial,
      keyId,
      principals: ['alice'],
      validAfter: new Date(now.getTime() - 60_000),
      validBefore: new Date(now.getTime() + 3_600_000),
    }),
  );
}

function krl(input: Partial<KrlInput>): Buffer {
  return encodeKrl({
    version: 7n,
    generatedAt: now,
    caPublicKeyBlob: ca.publicKeyBlob,
    comment: 'certsvc test',
    ...input,
  });
}

/** The serials `ssh-keygen -Q -l` reports, expanded from its `a-b` ranges. */
function dumpedSerials(bytes: Buffer): bigint[] {
  const dump = sshKeygenDumpKrl(bytes);
  expect(dump.status).toBe(0);
  const serials: bigint[] = [];
  for (const match of dump.out.matchAll(/^serial: (\d+)(?:-(\d+))?$/gm)) {
    const lo = BigInt(match[1]);
    const hi = BigInt(match[2] ?? match[1]);
    for (let s = lo; s <= hi; s++) serials.push(s);
  }
  return serials;
}

describe('encodeKrl (read by ssh-keygen -Q)', () => {
  it('revokes listed serials: REVOKED (exit 1) for those, fine (exit 0) for the others', () => {
    const bytes = krl({ revokedSerials: [5n, 9n, 1000n] });
    for (const s of [5n, 9n, 1000n]) {
      const result = sshKeygenQueryKrl(bytes, [cert(s)]);
      expect(result.status).toBe(1);
      expect(result.out).toContain('REVOKED');
    }
    for (const s of [4n, 6n, 999n, 1001n]) {
      expect(sshKeygenQueryKrl(bytes, [cert(s)])).toMatchObject({ status: 0 });
    }
  });

  it('encodes ranges, bitmaps and lists that OpenSSH expands to exactly the same serials', () => {
    const serials: bigint[] = [];
    for (let s = 1000n; s < 1500n; s++) serials.push(s); // long run: a range
    for (let s = 5000n; s < 6000n; s += 3n) serials.push(s); // dense: a bitmap
    serials.push(1n, 1n << 40n, (1n << 64n) - 1n); // scattered: a list
    for (let s = 9000n; s < 9100n; s++) if (s % 7n !== 0n) serials.push(s); // run with holes
    const bytes = krl({ revokedSerials: [...serials].reverse() });
    expect(dumpedSerials(bytes)).toEqual([...new Set(serials)].sort((a, b) => (a < b ? -1 : 1)));
    expect(sshKeygenQueryKrl(bytes, [cert(5003n)]).status).toBe(1);
    expect(sshKeygenQueryKrl(bytes, [cert(5004n)]).status).toBe(0);
    expect(sshKeygenQueryKrl(bytes, [cert(9009n)]).status).toBe(0);
    expect(sshKeygenQueryKrl(bytes, [cert(9008n)]).status).toBe(1);
  });

  it('keeps 100 000 random serials exact and small', () => {
    const serials = new Set<bigint>();
    let s = 1n;
    while (serials.size < 100_000) {
      s += BigInt(1 + Math.floor(Math.random() * 6));
      serials.add(s);
    }
    const bytes = krl({ revokedSerials: [...serials] });
    expect(bytes.length).toBeLessThan(100_000);
    expect(dumpedSerials(bytes)).toEqual([...serials]);
  });

  it('revokes by key id and leaves other ids fine', () => {
    const bytes = krl({ revokedKeyIds: ['certsvc:device-a', 'certsvc:device-b'] });
    expect(sshKeygenQueryKrl(bytes, [cert(77n, 'certsvc:device-a')]).status).toBe(1);
    expect(sshKeygenQueryKrl(bytes, [cert(77n, 'certsvc:device-c')]).status).toBe(0);
  });

  it('revokes plain keys by blob and by SHA-256', () => {
    const [a, b, c] = [1, 2, 3].map(() => sshKeygenKey('ed25519').publicKey);
    const bytes = krl({
      revokedKeyBlobs: [parseSshPublicKey(a).blob],
      revokedKeySha256s: [parseSshPublicKey(b).sha256],
    });
    expect(sshKeygenQueryKrl(bytes, [a]).status).toBe(1);
    expect(sshKeygenQueryKrl(bytes, [b]).status).toBe(1);
    expect(sshKeygenQueryKrl(bytes, [c]).status).toBe(0);
  });

  it('carries the version and comment; an empty KRL revokes nothing', () => {
    const empty = krl({ version: 12345n });
    const dump = sshKeygenDumpKrl(empty);
    expect(dump.out).toContain('# KRL version 12345');
    expect(dump.out).toContain('# Comment: certsvc test');
    expect(sshKeygenQueryKrl(empty, [cert(1n)]).status).toBe(0);
  });

  it('is deterministic for the same input and refuses serial 0', () => {
    const input = { revokedSerials: [3n, 1n, 2n, 2n], revokedKeyIds: ['b', 'a'] };
    expect(krl(input)).toEqual(krl({ revokedSerials: [1n, 2n, 3n], revokedKeyIds: ['a', 'b'] }));
    expect(() => krl({ revokedSerials: [0n] })).toThrow(
      expect.objectContaining({ code: 'ssh_certificate_invalid' }),
    );
  });
});
