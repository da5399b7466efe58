import {
  createHash,
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  sign,
  type KeyObject,
} from 'node:crypto';
import { openPrivateKey, sealPrivateKey } from '../ca/key-envelope';
import { PkiError } from '../pki.errors';
import {
  buildSshCertificate,
  type IssuedSshCertificate,
  type SshCertificateAuthority,
  type SshCertificateFields,
} from './ssh-certificate';
import { ed25519PublicKeyBlob, formatSshPublicKey } from './ssh-public-key';
import { SshWriter } from './ssh-wire';

/** AAD label binding the sealed SSH user CA key to its role (see key-envelope.ts). */
export const SSH_USER_CA_KEY_LABEL = 'pki/ssh-ca/user/v1';

/** The SSH user CA as persisted: its public key blob and the PKCS#8 key sealed with the KEK. */
export interface SshCaMaterial {
  readonly formatVersion: 1;
  /** Wire blob of the Ed25519 public key. */
  readonly publicKeyBlob: Buffer;
  /** PKCS#8 sealed with AES-256-GCM (`v1:<iv>:<tag>:<ciphertext>`); never the clear key. */
  readonly encryptedPrivateKey: string;
  readonly createdAt: Date;
}

/** Persistence port; `saveIfAbsent` is atomic so replicas starting together agree on one CA. */
export interface SshCaMaterialStore {
  load(): Promise<SshCaMaterial | undefined>;
  saveIfAbsent(material: SshCaMaterial): Promise<SshCaMaterial>;
}

function rawEd25519(publicKey: KeyObject): Buffer {
  const spki = publicKey.export({ format: 'der', type: 'spki' });
  return spki.subarray(spki.length - 32);
}

/** Generates an Ed25519 user CA; the private key leaves this function only sealed. */
export function generateSshCaMaterial(kek: Buffer, now = new Date()): SshCaMaterial {
  const { privateKey, publicKey } = generateKeyPairSync('ed25519');
  const pkcs8 = privateKey.export({ format: 'der', type: 'pkcs8' });
  try {
    return {
      formatVersion: 1,
      publicKeyBlob: ed25519PublicKeyBlob(rawEd25519(publicKey)),
      encryptedPrivateKey: sealPrivateKey(pkcs8, kek, SSH_USER_CA_KEY_LABEL),
      createdAt: now,
    };
  } finally {
    pkcs8.fill(0);
  }
}

/** Loads the CA from the store, generating and saving it at first start. */
export async function ensureSshCaMaterial(
  store: SshCaMaterialStore,
  kek: Buffer,
): Promise<SshCaMaterial> {
  return (await store.load()) ?? store.saveIfAbsent(generateSshCaMaterial(kek));
}

/** The opened SSH user CA: signs certificates with node:crypto Ed25519. */
export class SshUserCa implements SshCertificateAuthority {
  readonly publicKeyBlob: Buffer;
  /** `SHA256:<base64>` of the CA public key, as `ssh-keygen -l` prints it. */
  readonly fingerprint: string;

  private constructor(
    private readonly privateKey: KeyObject,
    publicKeyBlob: Buffer,
  ) {
    this.publicKeyBlob = publicKeyBlob;
    this.fingerprint = `SHA256:${createHash('sha256').update(publicKeyBlob).digest('base64').replace(/=+$/, '')}`;
  }

  /** Opens the sealed key and checks that it belongs to the stored public key. */
  static open(material: SshCaMaterial, kek: Buffer): SshUserCa {
    const pkcs8 = openPrivateKey(material.encryptedPrivateKey, kek, SSH_USER_CA_KEY_LABEL);
    let privateKey: KeyObject;
    try {
      privateKey = createPrivateKey({ key: pkcs8, format: 'der', type: 'pkcs8' });
    } finally {
      pkcs8.fill(0);
    }
    const blob = ed25519PublicKeyBlob(rawEd25519(createPublicKey(privateKey)));
    if (privateKey.asymmetricKeyType !== 'ed25519' || !blob.equals(material.publicKeyBlob)) {
      throw new PkiError(
        'ssh_ca_material_invalid',
        'the sealed SSH CA key does not match the stored SSH CA public key',
      );
    }
    return new SshUserCa(privateKey, blob);
  }

  /** `ssh-ed25519 AAAA... <comment>`: a line for sshd's `TrustedUserCAKeys`. */
  authorizedKey(comment = 'certsvc-ssh-user-ca'): string {
    return formatSshPublicKey(this.publicKeyBlob, comment);
  }

  signatureOf(data: Buffer): Buffer {
    return new SshWriter(83)
      .string('ssh-ed25519')
      .string(sign(null, data, this.privateKey))
      .toBuffer();
  }

  issue(fields: SshCertificateFields): IssuedSshCertificate {
    return buildSshCertificate(fields, this);
  }
}
