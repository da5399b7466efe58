// The tier-2 process contract between the plugin runner and a native plugin
// (docs/plugins/native.md), in the shape of HashiCorp go-plugin's handshake.

/**
 * Environment variable and value every native plugin is started with. Not a secret: it only
 * tells a plugin that a runner started it (run by hand, a plugin should say so and exit).
 */
export const NATIVE_MAGIC_COOKIE_KEY = 'FINDSVC_PLUGIN_MAGIC_COOKIE';
export const NATIVE_MAGIC_COOKIE_VALUE =
  'b7c5d9e2a4f1406c8e3d2a1f0c9b8a7e6d5c4b3a29181716151413121110f0e1';

/** Environment variable naming the app protocol versions the runner speaks (`1`). */
export const NATIVE_PROTOCOL_VERSIONS_KEY = 'FINDSVC_PLUGIN_PROTOCOL_VERSIONS';
/** Environment variable naming the private 0700 directory the plugin puts its socket in. */
export const NATIVE_SOCKET_DIR_KEY = 'FINDSVC_PLUGIN_SOCKET_DIR';

/** Version of the handshake line format itself. */
export const NATIVE_CORE_PROTOCOL_VERSION = 1;
/** Version of channel.proto. */
export const CHANNEL_PROTOCOL_VERSION = 1;

export interface NativeHandshake {
  coreVersion: number;
  appVersion: number;
  network: 'unix';
  address: string;
  protocol: 'grpc';
}

/** `1|1|unix|/path/to/plugin.sock|grpc`: the first line a native plugin writes to stdout. */
export function formatHandshakeLine(socketPath: string): string {
  return `${NATIVE_CORE_PROTOCOL_VERSION}|${CHANNEL_PROTOCOL_VERSION}|unix|${socketPath}|grpc`;
}

/** Parses a handshake line; throws an Error saying what is wrong with it. */
export function parseHandshakeLine(line: string): NativeHandshake {
  const parts = line.trim().split('|');
  if (parts.length !== 5) {
    throw new Error(`handshake line must have 5 fields separated by "|", got ${parts.length}`);
  }
  const [core, app, network, address, protocol] = parts;
  if (core !== String(NATIVE_CORE_PROTOCOL_VERSION)) {
    throw new Error(
      `unsupported core protocol version "${core}" (expected ${NATIVE_CORE_PROTOCOL_VERSION})`,
    );
  }
  if (app !== String(CHANNEL_PROTOCOL_VERSION)) {
    throw new Error(
      `unsupported app protocol version "${app}" (expected ${CHANNEL_PROTOCOL_VERSION})`,
    );
  }
  if (network !== 'unix') throw new Error(`unsupported network "${network}" (expected unix)`);
  if (!address || !address.startsWith('/')) {
    throw new Error('socket address must be an absolute path');
  }
  if (protocol !== 'grpc') throw new Error(`unsupported protocol "${protocol}" (expected grpc)`);
  return { coreVersion: 1, appVersion: 1, network: 'unix', address, protocol: 'grpc' };
}
