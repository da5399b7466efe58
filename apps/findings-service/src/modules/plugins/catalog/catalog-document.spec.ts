import { generateSigningKeyPair, signManifest } from '@platform/plugin-sdk';
import {
  CATALOG_FORMAT,
  CatalogFormatError,
  compareSemver,
  readCatalog,
  SIGNED_CATALOG_FORMAT,
} from './catalog-document';

const DIGEST = 'a'.repeat(64);
const key = generateSigningKeyPair();
const other = generateSigningKeyPair();

function version(v: string, extra: Record<string, unknown> = {}) {
  return {
    version: v,
    min_service_version: '>=0.33',
    runtime: 'wasm',
    capabilities: ['finding_enricher'],
    artifact_url: `artifacts/p-${v}.wasm`,
    artifact_sha256: DIGEST,
    manifest: Buffer.from('{}').toString('base64'),
    signature: null,
    ...extra,
  };
}

function document(extra: Record<string, unknown> = {}) {
  return {
    format: CATALOG_FORMAT,
    plugins: [
      { id: 'p', available_versions: [version('1.0.0'), version('1.10.0'), version('1.2.0')] },
    ],
    revoked_digests: [DIGEST],
    ...extra,
  };
}

function envelope(doc: unknown, signWith = key.privateKeyPem) {
  const bytes = Buffer.from(JSON.stringify(doc));
  return Buffer.from(
    JSON.stringify({
      format: SIGNED_CATALOG_FORMAT,
      catalog: bytes.toString('base64'),
      signature: signManifest(bytes, signWith),
    }),
  );
}

function kind(fn: () => unknown): string {
  try {
    fn();
    return 'accepted';
  } catch (error) {
    expect(error).toBeInstanceOf(CatalogFormatError);
    return (error as CatalogFormatError).kind;
  }
}

describe('catalog document', () => {
  it('orders versions newest first by semantic version', () => {
    const read = readCatalog(envelope(document()), key.publicKeyPem);
    expect(read.plugins[0].available_versions.map((v) => v.version)).toEqual([
      '1.10.0',
      '1.2.0',
      '1.0.0',
    ]);
    expect(read.revoked_digests).toEqual([DIGEST]);
    expect(compareSemver('1.0.0-rc.1', '1.0.0')).toBe(-1);
  });

  it('a signed source needs the envelope with a signature by its key over the exact bytes', () => {
    const plain = Buffer.from(JSON.stringify(document()));
    expect(kind(() => readCatalog(plain, key.publicKeyPem))).toBe('signature');
    expect(
      kind(() => readCatalog(envelope(document(), other.privateKeyPem), key.publicKeyPem)),
    ).toBe('signature');
    const tampered = JSON.parse(envelope(document()).toString()) as Record<string, string>;
    tampered.catalog = Buffer.from(JSON.stringify(document({ revoked_digests: [] }))).toString(
      'base64',
    );
    expect(kind(() => readCatalog(Buffer.from(JSON.stringify(tampered)), key.publicKeyPem))).toBe(
      'signature',
    );
  });

  it('an unsigned source may serve the bare document or an unchecked envelope', () => {
    expect(kind(() => readCatalog(Buffer.from(JSON.stringify(document())), null))).toBe('accepted');
    expect(kind(() => readCatalog(envelope(document(), other.privateKeyPem), null))).toBe(
      'accepted',
    );
  });

  it('refuses malformed documents', () => {
    const bad = (doc: unknown) => kind(() => readCatalog(Buffer.from(JSON.stringify(doc)), null));
    expect(bad({ ...document(), format: 'x' })).toBe('invalid');
    expect(bad(document({ revoked_digests: ['ABC'] }))).toBe('invalid');
    expect(
      bad(
        document({ plugins: [{ id: 'p', available_versions: [version('1'), version('2.0.0')] }] }),
      ),
    ).toBe('invalid');
    expect(
      bad(
        document({
          plugins: [{ id: 'p', available_versions: [version('1.0.0'), version('1.0.0')] }],
        }),
      ),
    ).toBe('invalid');
    expect(
      bad(
        document({
          plugins: [{ id: 'p', available_versions: [version('1.0.0', { capabilities: ['x'] })] }],
        }),
      ),
    ).toBe('invalid');
    expect(kind(() => readCatalog(Buffer.from('not json'), null))).toBe('invalid');
  });
});
