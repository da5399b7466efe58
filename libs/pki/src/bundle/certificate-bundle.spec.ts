import { crc32 } from 'node:zlib';
import { certificatesFromPem } from '../der/pem';
import { PkiError } from '../pki.errors';
import { buildCertificateBundle } from './certificate-bundle';
import { writeStoredZip } from './zip-writer';

/** Minimal reader of what writeStoredZip produces (stored entries, central directory). */
function readZip(zip: Buffer): Map<string, Buffer> {
  const end = zip.length - 22;
  expect(zip.readUInt32LE(end)).toBe(0x06054b50);
  const count = zip.readUInt16LE(end + 10);
  let offset = zip.readUInt32LE(end + 16);
  const files = new Map<string, Buffer>();
  for (let i = 0; i < count; i++) {
    expect(zip.readUInt32LE(offset)).toBe(0x02014b50);
    const size = zip.readUInt32LE(offset + 24);
    const nameLength = zip.readUInt16LE(offset + 28);
    const local = zip.readUInt32LE(offset + 42);
    const name = zip.toString('utf8', offset + 46, offset + 46 + nameLength);
    const start = local + 30 + zip.readUInt16LE(local + 26);
    const data = zip.subarray(start, start + size);
    expect(crc32(data)).toBe(zip.readUInt32LE(offset + 16));
    files.set(name, data);
    offset += 46 + nameLength;
  }
  return files;
}

describe('certificate bundle', () => {
  const leaf = Buffer.from('leaf');
  const issuing = Buffer.from('issuing');
  const root = Buffer.from('root');
  const modifiedAt = new Date('2026-05-06T07:08:10Z');

  it('contains certificate, chain, fullchain and CA files', () => {
    const files = readZip(
      buildCertificateBundle({ certificateDer: leaf, chainDer: [issuing, root], modifiedAt }),
    );
    expect([...files.keys()]).toEqual(['certificate.pem', 'chain.pem', 'fullchain.pem', 'ca.pem']);
    const ders = (name: string): Buffer[] => certificatesFromPem(files.get(name)!.toString());
    expect(ders('certificate.pem')).toEqual([leaf]);
    expect(ders('chain.pem')).toEqual([issuing]);
    expect(ders('fullchain.pem')).toEqual([leaf, issuing]);
    expect(ders('ca.pem')).toEqual([root]);
  });

  it('is byte-for-byte stable for the same input', () => {
    const input = { certificateDer: leaf, chainDer: [issuing, root], modifiedAt };
    expect(buildCertificateBundle(input)).toEqual(buildCertificateBundle(input));
  });

  it('refuses unsafe names and an empty chain', () => {
    expect(() => writeStoredZip([{ name: '../x', data: leaf }], modifiedAt)).toThrow(PkiError);
    expect(() => writeStoredZip([{ name: '/etc/x', data: leaf }], modifiedAt)).toThrow(PkiError);
    expect(() =>
      buildCertificateBundle({ certificateDer: leaf, chainDer: [], modifiedAt }),
    ).toThrow(PkiError);
  });
});
