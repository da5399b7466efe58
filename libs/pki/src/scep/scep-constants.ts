/** Object identifiers and codes of SCEP (RFC 8894) and the CMS pieces it uses. */
export const ScepOids = {
  messageType: '2.16.840.1.113733.1.9.2',
  pkiStatus: '2.16.840.1.113733.1.9.3',
  failInfo: '2.16.840.1.113733.1.9.4',
  senderNonce: '2.16.840.1.113733.1.9.5',
  recipientNonce: '2.16.840.1.113733.1.9.6',
  transactionId: '2.16.840.1.113733.1.9.7',
  failInfoText: '1.3.6.1.5.5.7.24.1',
  contentType: '1.2.840.113549.1.9.3',
  messageDigest: '1.2.840.113549.1.9.4',
  signingTime: '1.2.840.113549.1.9.5',
  challengePassword: '1.2.840.113549.1.9.7',
  data: '1.2.840.113549.1.7.1',
  signedData: '1.2.840.113549.1.7.2',
  envelopedData: '1.2.840.113549.1.7.3',
  rsaEncryption: '1.2.840.113549.1.1.1',
  rsaesOaep: '1.2.840.113549.1.1.7',
  sha1: '1.3.14.3.2.26',
  sha256: '2.16.840.1.101.3.4.2.1',
  sha1WithRsa: '1.2.840.113549.1.1.5',
  sha256WithRsa: '1.2.840.113549.1.1.11',
  aes128Cbc: '2.16.840.1.101.3.4.1.2',
  aes192Cbc: '2.16.840.1.101.3.4.1.22',
  aes256Cbc: '2.16.840.1.101.3.4.1.42',
  desEde3Cbc: '1.2.840.113549.3.7',
  desCbc: '1.3.14.3.2.7',
} as const;

/** messageType values (RFC 8894 section 3.2.1.2). */
export const ScepMessageType = {
  CertRep: '3',
  RenewalReq: '17',
  PKCSReq: '19',
  CertPoll: '20',
  GetCert: '21',
  GetCRL: '22',
} as const;

/** pkiStatus values. */
export const ScepPkiStatus = { SUCCESS: '0', FAILURE: '2', PENDING: '3' } as const;

/** failInfo values and what they mean for an administrator. */
export const SCEP_FAIL_INFO: Readonly<Record<string, string>> = {
  '0': 'badAlg: the CA does not support the algorithm used',
  '1': 'badMessageCheck: the CA could not verify the message (signature or integrity check failed)',
  '2': 'badRequest: the CA refused the request (policy, or a wrong or missing challenge password)',
  '3': 'badTime: the message time was not close enough to the CA time',
  '4': 'badCertId: the CA found no certificate matching the request',
};

/** Hash names (node:crypto) by digest OID, and back. */
export const HASH_BY_OID: Readonly<Record<string, 'sha1' | 'sha256' | 'sha384' | 'sha512'>> = {
  [ScepOids.sha1]: 'sha1',
  [ScepOids.sha256]: 'sha256',
  '2.16.840.1.101.3.4.2.2': 'sha384',
  '2.16.840.1.101.3.4.2.3': 'sha512',
};

/**
 * Content-encryption algorithms the client decrypts (node:crypto names, key sizes). Single
 * DES is only read, never sent: some CAs (scepserver 2.1) encrypt their CertRep with it
 * whatever they advertise; OpenSSL 3 has it only in the legacy provider, so it is run as
 * 3DES with the key three times (K1 = K2 = K3 is DES). What it protects is the issued
 * certificate, which is public anyway.
 */
export const CONTENT_CIPHERS: Readonly<
  Record<string, { name: string; keyBytes: number; send: boolean }>
> = {
  [ScepOids.aes128Cbc]: { name: 'aes-128-cbc', keyBytes: 16, send: true },
  [ScepOids.aes192Cbc]: { name: 'aes-192-cbc', keyBytes: 24, send: true },
  [ScepOids.aes256Cbc]: { name: 'aes-256-cbc', keyBytes: 32, send: true },
  [ScepOids.desEde3Cbc]: { name: 'des-ede3-cbc', keyBytes: 24, send: true },
  [ScepOids.desCbc]: { name: 'des-ede3-cbc', keyBytes: 8, send: false },
};
