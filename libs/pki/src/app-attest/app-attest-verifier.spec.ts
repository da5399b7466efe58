import { X509Certificate, randomBytes } from 'node:crypto';
import {
  APP_ATTEST_AAGUID_DEVELOPMENT,
  encodeTestCbor,
  testAppAttestIntermediate,
  testAppAttestRoot,
  testAppAttestation,
  type TestAttestationOptions,
  type TestCborValue,
} from '../testing/app-attest-fixture';
import { decodeCbor } from './cbor';
import { verifyAppAttestation, type AppAttestVerifyInput } from './app-attest-verifier';

const APP_ID = 'ABCDE12345.com.example.agent';

describe('verifyAppAttestation', () => {
  const root = testAppAttestRoot();
  const intermediate = testAppAttestIntermediate(root);
  const otherRoot = testAppAttestRoot('Other Root');
  const challenge = randomBytes(32);

  const build = (overrides: Partial<TestAttestationOptions> = {}) =>
    testAppAttestation({ intermediate, challenge, appId: APP_ID, ...overrides });

  const input = (
    made: { attestation: Buffer; keyId: Buffer },
    overrides: Partial<AppAttestVerifyInput> = {},
  ): AppAttestVerifyInput => ({
    attestation: made.attestation,
    keyId: made.keyId,
    challenge,
    appIds: ['OTHER12345.com.example.other', APP_ID],
    roots: [new X509Certificate(otherRoot.der), new X509Certificate(root.der)],
    allowDevelopment: false,
    now: new Date(),
    ...overrides,
  });

  const refusal = (verdict: ReturnType<typeof verifyAppAttestation>) =>
    verdict.ok ? 'accepted' : verdict.reason;

  it('accepts an attestation built per Apple layout, chained to the configured root', () => {
    const made = build();
    const verdict = verifyAppAttestation(input(made));
    expect(verdict).toMatchObject({ ok: true, appId: APP_ID, environment: 'production' });
  });

  it('refuses another challenge', () => {
    expect(refusal(verifyAppAttestation(input(build(), { challenge: randomBytes(32) })))).toMatch(
      /nonce/,
    );
  });

  it('refuses a chain to a root that is not configured', () => {
    const made = build();
    expect(
      refusal(verifyAppAttestation(input(made, { roots: [new X509Certificate(otherRoot.der)] }))),
    ).toMatch(/root/);
  });

  it('refuses a credential certificate without its intermediate in x5c', () => {
    expect(refusal(verifyAppAttestation(input(build({ omitIntermediate: true }))))).toMatch(/root/);
  });

  it('refuses a roots list that is empty (nothing configured)', () => {
    expect(refusal(verifyAppAttestation(input(build(), { roots: [] })))).toMatch(/root/);
  });

  it('refuses once the root has expired (validity checked at now)', () => {
    const later = new Date(Date.now() + 400 * 86_400_000);
    expect(refusal(verifyAppAttestation(input(build(), { now: later })))).toMatch(/validity/);
  });

  it('refuses another key id', () => {
    expect(refusal(verifyAppAttestation(input(build(), { keyId: randomBytes(32) })))).toMatch(
      /key_id/,
    );
  });

  it('refuses an App ID that is not configured', () => {
    expect(
      refusal(verifyAppAttestation(input(build({ appId: 'ZZZZZ99999.com.evil.app' })))),
    ).toMatch(/App ID/);
  });

  it('refuses a nonzero counter', () => {
    expect(refusal(verifyAppAttestation(input(build({ signCount: 1 }))))).toMatch(/counter/);
  });

  it('refuses a certificate nonce that is not the one of this authData', () => {
    expect(refusal(verifyAppAttestation(input(build({ nonce: randomBytes(32) }))))).toMatch(
      /nonce/,
    );
  });

  it('refuses a credential id that is not the key id', () => {
    expect(refusal(verifyAppAttestation(input(build({ credentialId: randomBytes(32) }))))).toMatch(
      /credentialId/,
    );
  });

  it('accepts the development aaguid only when allowed', () => {
    const made = build({ aaguid: APP_ATTEST_AAGUID_DEVELOPMENT });
    expect(refusal(verifyAppAttestation(input(made)))).toMatch(/aaguid/);
    expect(verifyAppAttestation(input(made, { allowDevelopment: true }))).toMatchObject({
      ok: true,
      environment: 'development',
    });
    expect(refusal(verifyAppAttestation(input(build({ aaguid: Buffer.alloc(16) }))))).toMatch(
      /aaguid/,
    );
  });

  it('refuses another fmt, a missing receipt, a non-array x5c and truncated CBOR', () => {
    const made = build();
    const object = decodeCbor(made.attestation) as Map<string, TestCborValue>;
    const variant = (change: (m: Map<string, TestCborValue>) => void) => {
      const copy = new Map(object);
      change(copy);
      return verifyAppAttestation(input({ attestation: encodeTestCbor(copy), keyId: made.keyId }));
    };
    expect(refusal(variant((m) => m.set('fmt', 'packed')))).toMatch(/fmt/);
    expect(refusal(variant((m) => m.set('attStmt', new Map([['x5c', []]]))))).toMatch(/receipt/);
    expect(
      refusal(
        variant((m) =>
          m.set(
            'attStmt',
            new Map<string, TestCborValue>([
              ['x5c', 'x'],
              ['receipt', Buffer.alloc(1)],
            ]),
          ),
        ),
      ),
    ).toMatch(/x5c/);
    expect(
      refusal(
        variant((m) =>
          m.set(
            'attStmt',
            new Map<string, TestCborValue>([
              ['x5c', [Buffer.from('junk')]],
              ['receipt', Buffer.alloc(1)],
            ]),
          ),
        ),
      ),
    ).toMatch(/not a certificate/);
    expect(refusal(variant((m) => m.set('authData', Buffer.alloc(10))))).toMatch(/nonce|short/);
    for (let cut = 0; cut < made.attestation.length; cut += 97) {
      const verdict = verifyAppAttestation(
        input({ attestation: made.attestation.subarray(0, cut), keyId: made.keyId }),
      );
      expect(verdict.ok).toBe(false);
    }
  });

  it('refuses garbage and oversized input without throwing', () => {
    for (const attestation of [
      Buffer.alloc(0),
      Buffer.from('not cbor at all'),
      Buffer.alloc(20_000, 0x40),
      randomBytes(5000),
    ]) {
      expect(verifyAppAttestation(input({ attestation, keyId: randomBytes(32) })).ok).toBe(false);
    }
  });
});
