import { MAX_CSR_BYTES, parseCsr, PkiError } from '@platform/pki';
import { OpensslWorkspace } from './support/openssl';

describe('CSR parsing against openssl req', () => {
  const ws = new OpensslWorkspace();
  afterAll(() => ws.cleanup());

  function opensslCsr(
    name: string,
    keyArgs: readonly string[],
    extra: readonly string[] = [],
  ): string {
    ws.ok([
      'req',
      '-new',
      ...keyArgs,
      '-nodes',
      '-keyout',
      `${name}.key`,
      '-subj',
      `/O=Example/CN=${name}`,
      '-out',
      `${name}.csr`,
      ...extra,
    ]);
    return ws.read(`${name}.csr`).toString('utf8');
  }

  function codeOf(input: Buffer | string): string {
    try {
      parseCsr(input);
      return 'accepted';
    } catch (error) {
      if (error instanceof PkiError) return error.code;
      throw error;
    }
  }

  it('parses and verifies an RSA-2048 CSR (PEM) with requested SANs', () => {
    const pem = opensslCsr(
      'rsa2048',
      ['-newkey', 'rsa:2048'],
      ['-addext', 'subjectAltName=DNS:host.example.com,email:a@example.com'],
    );
    const csr = parseCsr(pem);
    expect(csr).toMatchObject({ keyAlgorithm: 'rsa', keyBits: 2048, subjectCommonName: 'rsa2048' });
    expect(csr.requestedSans).toEqual([
      { type: 'dns', value: 'host.example.com' },
      { type: 'email', value: 'a@example.com' },
    ]);
    const spkiHash = ws
      .ok(['req', '-in', 'rsa2048.csr', '-pubkey', '-noout'])
      .replace(/-----[A-Z ]+-----|\s/g, '');
    expect(csr.publicKeySpkiDer.toString('base64')).toBe(spkiHash);
  });

  it('parses and verifies an EC P-256 CSR (DER) and a P-384 one', () => {
    opensslCsr('ec256', ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256']);
    ws.ok(['req', '-in', 'ec256.csr', '-outform', 'DER', '-out', 'ec256.der']);
    expect(parseCsr(ws.read('ec256.der'))).toMatchObject({
      keyAlgorithm: 'ec',
      curve: 'P-256',
      subjectCommonName: 'ec256',
    });
    const p384 = opensslCsr('ec384', [
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:P-384',
      '-sha384',
    ]);
    expect(parseCsr(p384)).toMatchObject({
      curve: 'P-384',
      signatureAlgorithm: 'ecdsa-with-SHA384',
    });
  });

  it('verifies an RSA-PSS signed CSR', () => {
    const pem = opensslCsr('pss', [
      '-newkey',
      'rsa:2048',
      '-sha256',
      '-sigopt',
      'rsa_padding_mode:pss',
      '-sigopt',
      'rsa_pss_saltlen:32',
    ]);
    expect(parseCsr(pem)).toMatchObject({ keyAlgorithm: 'rsa', signatureAlgorithm: 'RSASSA-PSS' });
  });

  it('refuses hostile CSRs with distinct codes', () => {
    opensslCsr('victim', ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256']);
    ws.ok(['req', '-in', 'victim.csr', '-outform', 'DER', '-out', 'victim.der']);
    const der = ws.read('victim.der');
    const flipped = Buffer.from(der);
    flipped[flipped.length - 3] ^= 0x40;
    expect(codeOf(Buffer.from('\u0000\u0001garbage-bytes\u00ff'))).toBe('csr_invalid');
    expect(codeOf(flipped)).toBe('csr_signature_invalid');
    expect(codeOf(Buffer.concat([der, Buffer.from('trailing')]))).toBe('csr_invalid');
    expect(codeOf(der.subarray(0, der.length - 1))).toBe('csr_invalid');
    expect(codeOf(Buffer.alloc(20 * 1024, 0x41))).toBe('csr_too_large');
    expect(20 * 1024).toBeGreaterThan(MAX_CSR_BYTES);
    expect(codeOf(opensslCsr('rsa1024', ['-newkey', 'rsa:1024']))).toBe('csr_key_unsupported');
    expect(
      codeOf(opensslCsr('k1', ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:secp256k1'])),
    ).toBe('csr_key_unsupported');
    expect(codeOf(opensslCsr('ed', ['-newkey', 'ed25519']))).toBe('csr_key_unsupported');
    expect(codeOf(opensslCsr('sha1', ['-newkey', 'rsa:2048', '-sha1']))).toBe(
      'csr_algorithm_unsupported',
    );
  });
});
