import { bundleVersion, etagMatches } from './bundle-version';

describe('bundle version', () => {
  const cert = {
    serial: '01',
    certificateDer: Buffer.from('leaf'),
    chainDer: [Buffer.from('ca')],
    notBefore: new Date(0),
    notAfter: new Date(1),
  };

  it('changes with the certificate and with the chain', () => {
    const v = bundleVersion(cert);
    expect(bundleVersion({ ...cert, certificateDer: Buffer.from('leaf2') })).not.toBe(v);
    expect(bundleVersion({ ...cert, chainDer: [Buffer.from('ca2')] })).not.toBe(v);
    expect(bundleVersion(cert)).toBe(v);
  });

  it('matches If-None-Match lists, weak tags and *', () => {
    expect(etagMatches('"a", W/"b"', '"b"')).toBe(true);
    expect(etagMatches('*', '"x"')).toBe(true);
    expect(etagMatches('"a"', '"b"')).toBe(false);
    expect(etagMatches(undefined, '"b"')).toBe(false);
  });
});
