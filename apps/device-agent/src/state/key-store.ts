import {
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  type KeyObject,
} from 'node:crypto';
import { AgentExit, ExitCode } from '../core/exit-codes';
import { softwareSigner, type CsrSigner } from '../crypto/csr';
import type { StateDir } from './state-dir';

/** The CSR key: its public half and a signer (software, or inside the TPM). */
export interface DeviceKey {
  readonly publicKey: KeyObject;
  readonly signer: CsrSigner;
  /** True when the key was already on disk (an enrollment interrupted earlier). */
  readonly reused: boolean;
}

/**
 * The key in `name`, or a new EC P-256 key written there (0600, atomically) before anything is
 * sent: a crash after this point leaves a key the next run reuses. The private key never
 * leaves this directory.
 */
export function loadOrCreateKey(dir: StateDir, name: string): DeviceKey {
  const existing = dir.read(name);
  if (existing !== null) {
    try {
      const privateKey = createPrivateKey(existing);
      return {
        publicKey: createPublicKey(privateKey),
        signer: softwareSigner(privateKey),
        reused: true,
      };
    } catch {
      throw new AgentExit(
        ExitCode.state,
        `${dir.file(name)} is not a private key; move it away to generate a new one`,
      );
    }
  }
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  dir.write(name, privateKey.export({ format: 'pem', type: 'pkcs8' }).toString());
  return { publicKey, signer: softwareSigner(privateKey), reused: false };
}
