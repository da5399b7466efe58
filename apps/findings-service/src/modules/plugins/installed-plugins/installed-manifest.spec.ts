import { installedManifest, installedManifestParses } from './installed-manifest';

function manifestBytes(version: string, settings: unknown[] = []): Buffer {
  return Buffer.from(
    JSON.stringify({
      id: 'chat-channel',
      version,
      capabilities: ['notification_channel'],
      runtime: 'native',
      wit_version: '0.1.0',
      min_service_version: '>=0.33',
      allowed_hosts: [],
      settings,
      artifact_sha256: 'a'.repeat(64),
    }),
  );
}

describe('installedManifest (the parsed manifest kept with the installed version)', () => {
  it('parses a version once; later reads of the same bytes share the frozen object', () => {
    const digest = '1'.repeat(64);
    const bytes = manifestBytes('1.0.0', [{ name: 'token', type: 'string', secret: true }]);
    const before = installedManifestParses();
    const first = installedManifest({ artifactSha256: digest, manifest: bytes });
    const again = installedManifest({ artifactSha256: digest, manifest: Buffer.from(bytes) });
    expect(again).toBe(first);
    expect(installedManifestParses()).toBe(before + 1);
    expect(first.settings[0]?.secret).toBe(true);
    expect(Object.isFrozen(first)).toBe(true);
    expect(Object.isFrozen(first.settings[0])).toBe(true);
  });

  it('parses again when the bytes under a digest differ, and keeps the new ones', () => {
    const digest = '2'.repeat(64);
    const one = installedManifest({ artifactSha256: digest, manifest: manifestBytes('1.0.0') });
    const two = installedManifest({ artifactSha256: digest, manifest: manifestBytes('1.0.1') });
    expect(one.version).toBe('1.0.0');
    expect(two.version).toBe('1.0.1');
    const parses = installedManifestParses();
    expect(installedManifest({ artifactSha256: digest, manifest: manifestBytes('1.0.1') })).toBe(
      two,
    );
    expect(installedManifestParses()).toBe(parses);
  });

  it('throws for bytes that do not validate, and keeps nothing', () => {
    const digest = '3'.repeat(64);
    expect(() => installedManifest({ artifactSha256: digest, manifest: '{"id": 1}' })).toThrow();
    const parses = installedManifestParses();
    expect(() => installedManifest({ artifactSha256: digest, manifest: '{"id": 1}' })).toThrow();
    expect(installedManifestParses()).toBe(parses + 1);
  });
});
