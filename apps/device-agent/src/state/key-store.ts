import {
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  type KeyObject,
} from 'node:crypto';
import { AgentExit, ExitCode } from '../core/exit-codes';
import type { StateDir, StateFileName } from './state-dir';

export interface DeviceKey {
  readonly privateKey: KeyObject;
  readonly publicKey: KeyObject;
  /** True when the key was already on disk (an enrollment interrupted earlier). */
  readonly reused: boolean;
}

/**
 * The key in `name`, or a new EC P-256 key written there (0600, atomically) before anything is
 * sent: a crash after this point leaves a key the next run reuses. The private key never
 * leaves this directory.
 */
export function loadOrCreateKey(dir: StateDir, name: StateFileName): DeviceKey {
  const existing = dir.read(name);
  if (existing !== null) {
    try {
      const privateKey = createPrivateKey(existing);
      return { privateKey, publicKey: createPublicKey(privateKey), reused: true };
    } catch {
      throw new AgentExit(
        ExitCode.state,
        `${dir.file(name)} is not a private key; move it away to generate a new one`,
      );
    }
  }
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  dir.write(name, privateKey.export({ format: 'pem', type: 'pkcs8' }).toString());
  return { privateKey, publicKey, reused: false };
}
