import { NonceSigner } from './signed-nonce';

const SECRET = 'a-jwt-secret-every-replica-shares-0123456789';
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

describe('NonceSigner', () => {
  const signer = new NonceSigner(SECRET);
  const expiry = new Date('2026-12-03T08:05:00.750Z');

  it('opens its own nonce to the kind and the expiry it carries, truncated to the second', () => {
    for (const kind of ['enroll', 'source'] as const) {
      const issued = signer.sign(kind, expiry);
      expect(issued.expiresAt.toISOString()).toBe('2026-12-03T08:05:00.000Z');
      expect(signer.open(issued.nonce)).toEqual({ kind, expiresAt: issued.expiresAt });
      expect(issued.nonce.length).toBeLessThanOrEqual(128); // the enroll body's bound
    }
  });

  it('a replica with the same secret opens it; another secret does not', () => {
    const { nonce } = signer.sign('enroll', expiry);
    expect(new NonceSigner(SECRET).open(nonce)?.kind).toBe('enroll');
    expect(new NonceSigner(`${SECRET}x`).open(nonce)).toBeUndefined();
  });

  it('gives a new random part every time', () => {
    const nonces = new Set(Array.from({ length: 1000 }, () => signer.sign('enroll', expiry).nonce));
    expect(nonces.size).toBe(1000);
  });

  it('opens to nothing once any character is changed, added or removed', () => {
    const { nonce } = signer.sign('enroll', expiry);
    for (let i = 0; i < nonce.length; i++) {
      for (const c of `${ALPHABET}.`) {
        if (c === nonce[i]) continue;
        const changed = nonce.slice(0, i) + c + nonce.slice(i + 1);
        expect([changed, signer.open(changed)]).toEqual([changed, undefined]);
      }
      expect(signer.open(nonce.slice(0, i) + nonce.slice(i + 1))).toBeUndefined();
    }
    expect(signer.open(`${nonce}A`)).toBeUndefined();
    expect(signer.open(` ${nonce}`)).toBeUndefined();
  });

  it('has one spelling per nonce: a leading zero or another encoding of the same MAC bytes is refused', () => {
    const { nonce } = signer.sign('source', expiry);
    const parts = nonce.split('.');
    // 16 MAC bytes in 22 characters: the last one carries 4 unused bits, so other characters
    // decode to the same bytes. Each would be a second string (a second hash) for one nonce.
    const mac = parts[4];
    const sameBytes = [...ALPHABET].filter(
      (c) =>
        c !== mac[21] &&
        Buffer.from(mac.slice(0, 21) + c, 'base64url').equals(Buffer.from(mac, 'base64url')),
    );
    expect(sameBytes.length).toBeGreaterThan(0);
    for (const c of sameBytes) {
      expect(signer.open([...parts.slice(0, 4), mac.slice(0, 21) + c].join('.'))).toBeUndefined();
    }
    const padded = [parts[0], parts[1], `0${parts[2]}`, parts[3], parts[4]].join('.');
    expect(signer.open(padded)).toBeUndefined();
  });

  it('refuses what it never issued: a stored nonce, empty text, another version', () => {
    const { nonce } = signer.sign('enroll', expiry);
    expect(signer.open('Zm9vYmFyYmF6cXV4cXV1eHF1dXhxdXV4cXV1eHF1dXg')).toBeUndefined();
    expect(signer.open('')).toBeUndefined();
    expect(signer.open(nonce.replace(/^n1/, 'n2'))).toBeUndefined();
  });
});
