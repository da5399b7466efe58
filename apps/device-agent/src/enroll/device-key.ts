import { readFileSync } from 'node:fs';
import type { AgentContext } from '../core/context';
import { AgentExit, ExitCode } from '../core/exit-codes';
import { loadOrCreateKey, type DeviceKey } from '../state/key-store';
import { StateFile, type StateDir } from '../state/state-dir';
import { TpmDevice } from '../tpm/tpm-device';
import type { TpmEvidenceSource } from './enroll-request';
import { openDeviceTrust, type DeviceTrust } from './continuity-key';

export type KeyStorage = 'software' | 'tpm';

export interface TpmOptions {
  /** `--tcti`: the TPM2TOOLS_TCTI for tpm2-tools (default: the environment's, else the device). */
  readonly tcti?: string;
  /** `--tpm-ek-chain`: PEM file of the EK certificate's intermediates (kept as tpm/ek-chain.pem). */
  readonly ekChainFile?: string;
}

/** The current key (`key`) or the renewal key (`renewal-key`), created when absent. */
export async function openDeviceKey(
  ctx: AgentContext,
  dir: StateDir,
  storage: KeyStorage,
  name: 'key' | 'renewal-key',
  tpmOptions: TpmOptions = {},
): Promise<{ key: DeviceKey; tpm?: TpmEvidenceSource; trust: DeviceTrust }> {
  if (storage === 'software') {
    const key = loadOrCreateKey(dir, name === 'key' ? StateFile.key : StateFile.renewalKey);
    return { key, trust: await openDeviceTrust(dir) };
  }
  if (dir.has(StateFile.key)) {
    throw new AgentExit(
      ExitCode.state,
      `${dir.path} holds a software key (key.pem); a TPM enrollment needs another --state-dir`,
    );
  }
  const device = await TpmDevice.open(dir, tpmOptions.tcti);
  if (tpmOptions.ekChainFile) device.dir.write('ek-chain.pem', readChain(tpmOptions.ekChainFile));
  const key = await device.key(name);
  ctx.logger.debug('TPM key ready', { key: name, reused: key.reused });
  return {
    key,
    tpm: { device, keyName: name, ekChain: pemToBase64Der(device.dir.read('ek-chain.pem') ?? '') },
    trust: await openDeviceTrust(dir, device),
  };
}

function readChain(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    throw new AgentExit(ExitCode.usage, `--tpm-ek-chain ${path}: ${(error as Error).message}`);
  }
}

/** The CERTIFICATE blocks of a PEM text, as base64 DER. */
export function pemToBase64Der(pem: string): string[] {
  const blocks = pem.match(/-----BEGIN CERTIFICATE-----[\s\S]*?-----END CERTIFICATE-----/g) ?? [];
  return blocks.map((block) =>
    Buffer.from(block.replace(/-----(BEGIN|END) CERTIFICATE-----|\s/g, ''), 'base64').toString(
      'base64',
    ),
  );
}
