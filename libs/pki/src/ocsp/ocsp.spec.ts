import { createHash } from 'node:crypto';
import { generateCaMaterial } from '../ca/ca-bootstrap';
import { loadIssuingCa } from '../ca/issuing-ca';
import { readCertificateInfo } from '../ca/certificate-info';
import { integer, octetString } from '../der/der-primitives';
import { oid } from '../der/der-oid';
import { readBitStringBytes, readChildren, readSingle } from '../der/der-reader';
import { explicit, sequence } from '../der/der-tlv';
import { OCSP_MAX_REQUESTS, OCSP_OIDS, parseOcspRequest } from './ocsp-request';
import { ocspErrorResponse, OcspResponder } from './ocsp-response';

const kek = Buffer.alloc(32, 4);
const ca = loadIssuingCa(generateCaMaterial(kek), kek);
const key = readBitStringBytes(
  readChildren(readSingle(readCertificateInfo(ca.certificateDer).spkiDer))[1],
);
const sha1 = (data: Buffer) => createHash('sha1').update(data).digest();

function certId(serial: Buffer, hashOid = '1.3.14.3.2.26', nameHash = sha1(ca.nameDer)): Buffer {
  return sequence(
    sequence(oid(hashOid)),
    octetString(nameHash),
    octetString(sha1(key)),
    integer(serial),
  );
}

function request(ids: Buffer[], nonce?: Buffer): Buffer {
  const extensions = nonce
    ? [explicit(2, sequence(sequence(oid(OCSP_OIDS.nonce), octetString(octetString(nonce)))))]
    : [];
  return sequence(sequence(sequence(...ids.map((id) => sequence(id))), ...extensions));
}

describe('OCSP request parsing and the issuing CA responder', () => {
  const responder = new OcspResponder(ca);

  it('reads CertIDs and the nonce, and recognises CertIDs naming this CA', () => {
    const parsed = parseOcspRequest(
      request(
        [certId(Buffer.from('40aa', 'hex')), certId(Buffer.from('01', 'hex'), '1.2.3')],
        Buffer.alloc(16, 7),
      ),
    );
    expect(parsed.certIds.map((c) => c.serial)).toEqual(['40aa', '01']);
    expect(parsed.nonceExtension).toBeDefined();
    expect(responder.issues(parsed.certIds[0])).toBe(true);
    // An unknown hash algorithm or another issuer name: not ours (answered unknown).
    expect(responder.issues(parsed.certIds[1])).toBe(false);
    const other = parseOcspRequest(
      request([certId(Buffer.from('01', 'hex'), undefined, sha1(Buffer.from('x')))]),
    );
    expect(responder.issues(other.certIds[0])).toBe(false);
  });

  it('refuses malformed requests: empty list, too many, oversized nonce, trailing bytes', () => {
    expect(() => parseOcspRequest(request([]))).toThrow();
    const many = Array.from({ length: OCSP_MAX_REQUESTS + 1 }, () =>
      certId(Buffer.from('01', 'hex')),
    );
    expect(() => parseOcspRequest(request(many))).toThrow();
    expect(() =>
      parseOcspRequest(request([certId(Buffer.from('01', 'hex'))], Buffer.alloc(200))),
    ).toThrow();
    const ok = request([certId(Buffer.from('01', 'hex'))]);
    expect(() => parseOcspRequest(Buffer.concat([ok, Buffer.from([0])]))).toThrow();
    expect(() => parseOcspRequest(Buffer.from('not der'))).toThrow();
  });

  it('reports a negative serial as no serial (answered unknown)', () => {
    const positive = certId(Buffer.from('7f01', 'hex'));
    // The same CertID with the INTEGER 0x7f01 turned into the negative 0xff01.
    const negative = Buffer.from(positive.toString('hex').replace(/02027f01$/, '0202ff01'), 'hex');
    expect(negative.equals(positive)).toBe(false);
    const parsed = parseOcspRequest(request([negative]));
    expect(parsed.certIds[0].serial).toBeUndefined();
  });

  it('encodes error statuses without responseBytes', () => {
    expect(ocspErrorResponse('malformedRequest')).toEqual(Buffer.from('30030a0101', 'hex'));
    expect(ocspErrorResponse('internalError')).toEqual(Buffer.from('30030a0102', 'hex'));
  });
});
