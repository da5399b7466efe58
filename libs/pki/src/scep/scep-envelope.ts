import {
  constants,
  createCipheriv,
  createDecipheriv,
  privateDecrypt,
  publicEncrypt,
  randomBytes,
  type KeyObject,
} from 'node:crypto';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { PkiError } from '../pki.errors';
import {
  algorithm,
  answerInvalid,
  contentInfoDer,
  identifies,
  issuerAndSerial,
  pkijsCertificate,
  readContentInfo,
} from './scep-asn1';
import { CONTENT_CIPHERS, ScepOids } from './scep-constants';
import { X509Certificate } from 'node:crypto';

/**
 * CMS EnvelopedData of SCEP messages with node:crypto: key transport is RSA PKCS#1 v1.5
 * (what SCEP CAs use; WebCrypto has no RSAES-PKCS1-v1_5, so pkijs' own `encrypt` cannot be
 * used), content AES-CBC or 3DES-CBC. pkijs builds and parses the structures.
 */

/** EnvelopedData (as ContentInfo DER) of `content` for the RSA key of `recipientDer`. */
export function envelope(content: Buffer, recipientDer: Buffer, cipherOid: string): Buffer {
  const cipher = CONTENT_CIPHERS[cipherOid];
  if (!cipher?.send) {
    throw new PkiError('scep_config_invalid', `unsupported content cipher ${cipherOid}`);
  }
  const recipientKey = new X509Certificate(recipientDer).publicKey;
  if (recipientKey.asymmetricKeyType !== 'rsa') {
    throw new PkiError(
      'scep_ca_certificate_invalid',
      'the CA/RA encryption certificate has no RSA key: SCEP key transport needs RSA',
    );
  }
  const key = randomBytes(cipher.keyBytes);
  const iv = randomBytes(cipher.name.startsWith('aes') ? 16 : 8);
  const encipher = createCipheriv(cipher.name, key, iv);
  const encrypted = Buffer.concat([encipher.update(content), encipher.final()]);
  const encryptedKey = publicEncrypt(
    { key: recipientKey, padding: constants.RSA_PKCS1_PADDING },
    key,
  );
  const recipient = pkijsCertificate(recipientDer);
  const enveloped = new pkijs.EnvelopedData({
    version: 0,
    recipientInfos: [
      new pkijs.RecipientInfo({
        variant: 1,
        value: new pkijs.KeyTransRecipientInfo({
          version: 0,
          rid: issuerAndSerial(recipient),
          keyEncryptionAlgorithm: algorithm(ScepOids.rsaEncryption, new asn1js.Null()),
          encryptedKey: new asn1js.OctetString({ valueHex: encryptedKey }),
        }),
      }),
    ],
    encryptedContentInfo: new pkijs.EncryptedContentInfo({
      disableSplit: true,
      contentType: ScepOids.data,
      contentEncryptionAlgorithm: algorithm(cipherOid, new asn1js.OctetString({ valueHex: iv })),
      encryptedContent: new asn1js.OctetString({ valueHex: encrypted }),
    }),
  });
  return contentInfoDer(ScepOids.envelopedData, enveloped);
}

export interface EnvelopeRecipient {
  readonly certificateDer: Buffer;
  readonly privateKey: KeyObject;
}

/** Decrypts an EnvelopedData (ContentInfo DER) addressed to `recipient`. */
export function openEnvelope(der: Buffer, recipient: EnvelopeRecipient, what: string): Buffer {
  let enveloped: pkijs.EnvelopedData;
  try {
    const schema = readContentInfo(der, ScepOids.envelopedData, what);
    enveloped = new pkijs.EnvelopedData({ schema });
  } catch (error) {
    if (error instanceof PkiError) throw error;
    throw answerInvalid(`${what} is not a PKCS#7 EnvelopedData`);
  }
  const ours = pkijsCertificate(recipient.certificateDer);
  const info = enveloped.recipientInfos.find(
    (r) => r.variant === 1 && identifies((r.value as pkijs.KeyTransRecipientInfo).rid, ours),
  )?.value as pkijs.KeyTransRecipientInfo | undefined;
  if (!info) throw answerInvalid(`${what} is not encrypted for the requester certificate`);
  const content = enveloped.encryptedContentInfo;
  const cipher = CONTENT_CIPHERS[content.contentEncryptionAlgorithm.algorithmId];
  if (!cipher) {
    throw answerInvalid(
      `${what} uses content encryption ${content.contentEncryptionAlgorithm.algorithmId}, which is not supported (AES-CBC, 3DES-CBC, DES-CBC)`,
    );
  }
  const key = unwrapKey(info, recipient.privateKey, cipher.keyBytes, what);
  const params = content.contentEncryptionAlgorithm.algorithmParams as unknown;
  if (!(params instanceof asn1js.OctetString)) throw answerInvalid(`${what} has no cipher IV`);
  try {
    const decipher = createDecipheriv(
      cipher.name,
      cipher.keyBytes === 8 ? Buffer.concat([key, key, key]) : key,
      Buffer.from(params.valueBlock.valueHexView),
    );
    const encrypted = Buffer.from(content.getEncryptedContent());
    return Buffer.concat([decipher.update(encrypted), decipher.final()]);
  } catch {
    throw answerInvalid(`${what} could not be decrypted with the requester key`);
  }
}

function unwrapKey(
  info: pkijs.KeyTransRecipientInfo,
  privateKey: KeyObject,
  keyBytes: number,
  what: string,
): Buffer {
  const encryptedKey = Buffer.from(info.encryptedKey.valueBlock.valueHexView);
  const failed = (): PkiError =>
    answerInvalid(`${what} could not be decrypted with the requester key`);
  const algorithmId = info.keyEncryptionAlgorithm.algorithmId;
  try {
    if (
      algorithmId === ScepOids.rsaesOaep &&
      info.keyEncryptionAlgorithm.algorithmParams === undefined
    ) {
      const key = privateDecrypt(
        { key: privateKey, padding: constants.RSA_PKCS1_OAEP_PADDING },
        encryptedKey,
      );
      if (key.length !== keyBytes) throw failed();
      return key;
    }
    if (algorithmId !== ScepOids.rsaEncryption) {
      throw answerInvalid(`${what} uses key transport ${algorithmId}, which is not supported`);
    }
    // Raw RSA, then the PKCS#1 v1.5 type 2 padding checked at the fixed position the
    // expected key length gives (Node refuses RSA_PKCS1_PADDING for decryption).
    const block = privateDecrypt(
      { key: privateKey, padding: constants.RSA_NO_PADDING },
      encryptedKey,
    );
    return (
      unpadPkcs1(block, keyBytes) ??
      (() => {
        throw failed();
      })()
    );
  } catch (error) {
    if (error instanceof PkiError) throw error;
    throw failed();
  }
}

/** The last `length` bytes of a PKCS#1 v1.5 encryption block, or undefined if malformed. */
function unpadPkcs1(block: Buffer, length: number): Buffer | undefined {
  const start = block.length - length;
  if (start < 11) return undefined;
  let bad = block[0] | (block[1] ^ 0x02) | block[start - 1];
  for (let i = 2; i < start - 1; i++) bad |= block[i] === 0 ? 1 : 0;
  return bad === 0 ? block.subarray(start) : undefined;
}
