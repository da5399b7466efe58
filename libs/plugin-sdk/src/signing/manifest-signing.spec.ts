import { generateKeyPairSync } from 'node:crypto';
import {
  artifactDigest,
  generateSigningKeyPair,
  PluginArtifactError,
  signManifest,
  verifyManifestSignature,
  verifyPluginArtifact,
} from './manifest-signing';

const artifact = Buffer.from('\0asm component bytes');

function manifestBytes(digest = artifactDigest(artifact)): Buffer {
  return Buffer.from(
    `${JSON.stringify(
      {
        id: 'zone-enricher',
        version: '2.0.0',
        capabilities: ['finding_enricher'],
        runtime: 'wasm',
        wit_version: '0.1.0',
        min_service_version: '>=0.33',
        allowed_hosts: [],
        settings: [],
        artifact_sha256: digest,
      },
      null,
      2,
    )}\n`,
  );
}

function problemOf(action: () => unknown): string {
  try {
    action();
  } catch (error) {
    expect(error).toBeInstanceOf(PluginArtifactError);
    return (error as PluginArtifactError).problem;
  }
  throw new Error('accepted');
}

describe('manifest signing (Ed25519 over the exact manifest bytes)', () => {
  const publisher = generateSigningKeyPair();
  const stranger = generateSigningKeyPair();

  it('verifies a signature of exactly the signed bytes with the publisher key only', () => {
    const bytes = manifestBytes();
    const signature = signManifest(bytes, publisher.privateKeyPem);
    expect(Buffer.from(signature, 'base64')).toHaveLength(64);
    expect(verifyManifestSignature(bytes, signature, publisher.publicKeyPem)).toBe(true);
    expect(verifyManifestSignature(bytes, signature, stranger.publicKeyPem)).toBe(false);
    // One byte more (a reformatted manifest means the same JSON but other bytes) fails.
    expect(
      verifyManifestSignature(
        Buffer.concat([bytes, Buffer.from(' ')]),
        signature,
        publisher.publicKeyPem,
      ),
    ).toBe(false);
    const tampered = Buffer.from(bytes);
    tampered[10] ^= 1;
    expect(verifyManifestSignature(tampered, signature, publisher.publicKeyPem)).toBe(false);
  });

  it('answers false for malformed signatures and keys instead of throwing', () => {
    const bytes = manifestBytes();
    const signature = signManifest(bytes, publisher.privateKeyPem);
    expect(verifyManifestSignature(bytes, '', publisher.publicKeyPem)).toBe(false);
    expect(verifyManifestSignature(bytes, 'not base64 at all!', publisher.publicKeyPem)).toBe(
      false,
    );
    expect(verifyManifestSignature(bytes, `${signature}AA`, publisher.publicKeyPem)).toBe(false);
    expect(verifyManifestSignature(bytes, signature, 'not a key')).toBe(false);
    const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
    expect(verifyManifestSignature(bytes, signature, rsa.publicKey)).toBe(false);
  });

  it('signs with Ed25519 keys only', () => {
    const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    expect(() => signManifest(manifestBytes(), ec.privateKey)).toThrow(/must be Ed25519, not ec/);
  });

  it('verifies an artifact as a host receives it: signature, manifest, digest', () => {
    const bytes = manifestBytes();
    const signature = signManifest(bytes, publisher.privateKeyPem);
    const manifest = verifyPluginArtifact({
      artifact,
      manifestBytes: bytes,
      signature,
      publicKey: publisher.publicKeyPem,
    });
    expect(manifest.artifact_sha256).toBe(artifactDigest(artifact));
    // An unsigned source passes no key: format and digest are still checked.
    expect(verifyPluginArtifact({ artifact, manifestBytes: bytes }).id).toBe('zone-enricher');

    expect(
      problemOf(() =>
        verifyPluginArtifact({ artifact, manifestBytes: bytes, publicKey: publisher.publicKeyPem }),
      ),
    ).toBe('signature_missing');
    expect(
      problemOf(() =>
        verifyPluginArtifact({
          artifact,
          manifestBytes: bytes,
          signature,
          publicKey: stranger.publicKeyPem,
        }),
      ),
    ).toBe('signature_invalid');
    expect(
      problemOf(() =>
        verifyPluginArtifact({ artifact: Buffer.from('other bytes'), manifestBytes: bytes }),
      ),
    ).toBe('digest_mismatch');
    const invalid = Buffer.from('{"id": "x"}');
    expect(
      problemOf(() =>
        verifyPluginArtifact({
          artifact,
          manifestBytes: invalid,
          signature: signManifest(invalid, publisher.privateKeyPem),
          publicKey: publisher.publicKeyPem,
        }),
      ),
    ).toBe('manifest_invalid');
  });
});
