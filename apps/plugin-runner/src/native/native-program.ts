import { hash } from 'node:crypto';
import { basename } from 'node:path';
import type { PluginCapability } from '@platform/plugin-sdk';
import { PluginLoadError, type LoadedArtifact } from '../plugin-host/plugin-host';
import type { NativeLimits } from './native-limits';

/**
 * What the runner starts for a native plugin. The artifact is one executable file:
 * - `node`: a script whose `#!` line names `node` — run by the runner's own Node binary with
 *   the heap limit (`--max-old-space-size`);
 * - `executable`: an ELF binary or any other `#!` script — run directly, under
 *   `prlimit --as` when prlimit is installed.
 * The digest covers exactly these bytes; the runner runs its own verified copy of them.
 */
export interface NativeProgram {
  kind: 'node' | 'executable';
  bytes: Uint8Array;
  digest: string;
}

const ELF_MAGIC = [0x7f, 0x45, 0x4c, 0x46];
/** The only capability that may run native; a ticketing provider never does. */
const NATIVE_CAPABILITY: PluginCapability = 'notification_channel';

function programKind(bytes: Uint8Array): NativeProgram['kind'] | undefined {
  if (ELF_MAGIC.every((byte, i) => bytes[i] === byte)) return 'executable';
  if (bytes[0] !== 0x23 || bytes[1] !== 0x21) return undefined; // "#!"
  const end = Buffer.from(bytes.subarray(0, 256)).indexOf(0x0a);
  const line = Buffer.from(bytes.subarray(2, end === -1 ? 256 : end)).toString('latin1');
  const words = line.trim().split(/\s+/);
  const interpreter = basename(words[0] ?? '');
  const program =
    interpreter === 'env' ? words.find((w, i) => i > 0 && !w.startsWith('-')) : interpreter;
  return program === 'node' || program === 'nodejs' ? 'node' : 'executable';
}

/**
 * The load-time checks of the native tier, in order: the source is signed, it carries
 * `allows_native`, the manifest declares the native runtime and only the notification
 * channel capability (a ticketing provider can never be native), and the artifact's sha256
 * equals both the installed digest and the signed manifest's `artifact_sha256`.
 */
export function verifyNativeProgram(artifact: LoadedArtifact): NativeProgram {
  const { manifest, source } = artifact;
  if (!source.signed) {
    throw new PluginLoadError(
      'native_unsigned_source',
      `plugin ${artifact.pluginId}: native execution needs a signed catalog source`,
    );
  }
  if (!source.allowsNative) {
    throw new PluginLoadError(
      'native_not_permitted',
      `plugin ${artifact.pluginId}: the catalog source does not carry allows_native`,
    );
  }
  if (manifest.runtime !== 'native') {
    throw new PluginLoadError(
      'manifest_invalid',
      `plugin ${artifact.pluginId}: the manifest declares runtime "${manifest.runtime}", not native`,
    );
  }
  if (manifest.capabilities.includes('ticketing_provider')) {
    throw new PluginLoadError(
      'native_capability_refused',
      `plugin ${artifact.pluginId}: a ticketing provider can never run native`,
    );
  }
  const others = manifest.capabilities.filter((c) => c !== NATIVE_CAPABILITY);
  if (others.length > 0 || manifest.capabilities.length === 0) {
    throw new PluginLoadError(
      'native_capability_refused',
      `plugin ${artifact.pluginId}: only a notification channel may run native (declares ${manifest.capabilities.join(', ') || 'nothing'})`,
    );
  }
  const digest = hash('sha256', artifact.artifact, 'hex');
  const expected = [artifact.versionDigest, manifest.artifact_sha256].map((d) => d.toLowerCase());
  if (expected.some((d) => d !== digest)) {
    throw new PluginLoadError(
      'digest_mismatch',
      `plugin ${artifact.pluginId}: the artifact's sha256 ${digest} differs from the installed digest ${artifact.versionDigest} or the manifest's ${manifest.artifact_sha256}`,
    );
  }
  const kind = programKind(artifact.artifact);
  if (!kind) {
    throw new PluginLoadError(
      'artifact_invalid',
      `plugin ${artifact.pluginId}: the artifact is neither an ELF executable nor a script starting with #!`,
    );
  }
  return { kind, bytes: artifact.artifact, digest };
}

/** The command line that starts `file` (the verified copy of the program) under the limits. */
export function nativeCommand(
  program: Pick<NativeProgram, 'kind'>,
  file: string,
  limits: Pick<NativeLimits, 'memoryLimitMb'>,
  tools: { nodePath: string; prlimitPath?: string },
): { command: string; args: string[]; memoryEnforced: 'heap' | 'address-space' | 'none' } {
  if (program.kind === 'node') {
    return {
      command: tools.nodePath,
      args: [`--max-old-space-size=${limits.memoryLimitMb}`, file],
      memoryEnforced: 'heap',
    };
  }
  if (tools.prlimitPath) {
    const bytes = limits.memoryLimitMb * 1024 * 1024;
    return {
      command: tools.prlimitPath,
      args: [`--as=${bytes}`, '--', file],
      memoryEnforced: 'address-space',
    };
  }
  return { command: file, args: [], memoryEnforced: 'none' };
}
