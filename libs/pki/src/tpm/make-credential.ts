import {
  constants,
  createCipheriv,
  createHmac,
  publicEncrypt,
  randomBytes,
  type KeyObject,
} from 'node:crypto';
import { kdfa } from './kdf';
import { TpmFormatError, sized, u32 } from './tpm-reader';

/** Secret sealed for the TPM; what ActivateCredential gives back. */
export const CREDENTIAL_BYTES = 32;

export interface MadeCredential {
  /** The secret the TPM releases only when the AK and the EK live in it together. */
  readonly credential: Buffer;
  /** TPM2B_ID_OBJECT (with its size): HMAC ‖ AES-CFB(credential). */
  readonly credentialBlob: Buffer;
  /** TPM2B_ENCRYPTED_SECRET (with its size): the seed under the EK. */
  readonly encryptedSecret: Buffer;
}

/**
 * TPM2_MakeCredential done off the TPM (TPM 2.0 Part 1 §24, "Credential Protection"),
 * for an RSA endorsement key of the TCG default templates (L-1 and H-1: name algorithm
 * SHA-256, symmetric AES-128-CFB). The seed travels RSA-OAEP-SHA-256-encrypted with
 * the label "IDENTITY"; only the TPM holding that EK can recover it, and it releases the
 * credential only for the object whose name is `objectName`.
 */
export function makeCredential(
  ekPublicKey: KeyObject,
  objectName: Buffer,
  credential: Buffer = randomBytes(CREDENTIAL_BYTES),
): MadeCredential {
  if (ekPublicKey.asymmetricKeyType !== 'rsa') {
    throw new TpmFormatError('only RSA endorsement keys are supported for credential activation');
  }
  const seed = randomBytes(32);
  const encryptedSeed = publicEncrypt(
    {
      key: ekPublicKey,
      padding: constants.RSA_PKCS1_OAEP_PADDING,
      oaepHash: 'sha256',
      oaepLabel: Buffer.from('IDENTITY\0', 'ascii'),
    },
    seed,
  );
  const symmetricKey = kdfa('sha256', seed, 'STORAGE', objectName, Buffer.alloc(0), 128);
  const cipher = createCipheriv('aes-128-cfb', symmetricKey, Buffer.alloc(16));
  const encIdentity = Buffer.concat([cipher.update(sized(credential)), cipher.final()]);
  const hmacKey = kdfa('sha256', seed, 'INTEGRITY', Buffer.alloc(0), Buffer.alloc(0), 256);
  const outerHmac = createHmac('sha256', hmacKey).update(encIdentity).update(objectName).digest();
  return {
    credential,
    credentialBlob: sized(Buffer.concat([sized(outerHmac), encIdentity])),
    encryptedSecret: sized(encryptedSeed),
  };
}

/** tpm2-tools' credential file (`tpm2_makecredential -o`, `tpm2_activatecredential -i`). */
export function tpm2ToolsCredentialFile(
  made: Pick<MadeCredential, 'credentialBlob' | 'encryptedSecret'>,
): Buffer {
  return Buffer.concat([u32(0xbadcc0de), u32(1), made.credentialBlob, made.encryptedSecret]);
}
