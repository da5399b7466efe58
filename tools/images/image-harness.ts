import { REPOSITORY_ROOT, WaitAborted, waitFor } from '@platform/testing';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** What tools/images/build.sh wrote last (dist/images/images.json). */
export interface BuiltImages {
  version: string;
  tag: string;
  images: { name: string; pulled_bytes: number; unpacked_bytes: number }[];
}

export const IMAGES_DIR = join(REPOSITORY_ROOT, process.env['IMAGES_OUT'] ?? 'dist/images');

export function builtImages(): BuiltImages {
  const file = join(IMAGES_DIR, 'images.json');
  if (!existsSync(file)) throw new Error(`${file} is missing: run npm run images first`);
  return JSON.parse(readFileSync(file, 'utf8')) as BuiltImages;
}

/** An image unpacked by umoci: its root file system and the runtime config made from its config. */
export interface UnpackedImage {
  name: string;
  rootfs: string;
  args: string[];
  env: Record<string, string>;
  cwd: string;
  uid: number;
  gid: number;
  /** The image config as stored in the layout (labels, exposed ports). */
  labels: Record<string, string>;
  remove: () => void;
}

interface RuntimeSpec {
  process: { args: string[]; env: string[]; cwd: string; user: { uid: number; gid: number } };
}

export function unpackImage(name: string, tag: string): UnpackedImage {
  const work = mkdtempSync(join(tmpdir(), `image-${name}-`));
  const bundle = join(work, 'bundle');
  execFileSync('umoci', ['unpack', '--image', `${join(IMAGES_DIR, name)}:${tag}`, bundle], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const spec = JSON.parse(readFileSync(join(bundle, 'config.json'), 'utf8')) as RuntimeSpec;
  const env: Record<string, string> = {};
  for (const entry of spec.process.env) {
    const at = entry.indexOf('=');
    env[entry.slice(0, at)] = entry.slice(at + 1);
  }
  return {
    name,
    rootfs: join(bundle, 'rootfs'),
    args: spec.process.args,
    env,
    cwd: spec.process.cwd,
    uid: spec.process.user.uid,
    gid: spec.process.user.gid,
    labels: readLabels(name, tag),
    remove: () => rmSync(work, { recursive: true, force: true }),
  };
}

function readLabels(name: string, tag: string): Record<string, string> {
  const layout = join(IMAGES_DIR, name);
  const index = JSON.parse(readFileSync(join(layout, 'index.json'), 'utf8')) as {
    manifests: { digest: string; annotations?: Record<string, string> }[];
  };
  const entry = index.manifests.find(
    (m) => m.annotations?.['org.opencontainers.image.ref.name'] === tag,
  );
  if (!entry) throw new Error(`${layout} has no tag ${tag}`);
  const blob = (digest: string) => join(layout, 'blobs', ...digest.split(':'));
  const manifest = JSON.parse(readFileSync(blob(entry.digest), 'utf8')) as {
    config: { digest: string };
  };
  const config = JSON.parse(readFileSync(blob(manifest.config.digest), 'utf8')) as {
    config: { Labels?: Record<string, string> };
  };
  return config.config.Labels ?? {};
}

/** A process running inside an unpacked image (tools/images/run-in-rootfs.sh). */
export interface ImageProcess {
  child: ChildProcess;
  output: () => string;
  running: () => boolean;
  ended: Promise<number | null>;
  kill: () => Promise<void>;
}

/**
 * Runs `args` (default: the image's own command) in the image, read-only root, as the image's
 * user, in new mount and PID namespaces, with the image's environment plus `env`.
 */
export function runInImage(
  image: UnpackedImage,
  env: Record<string, string>,
  args: string[] = image.args,
): ImageProcess {
  const child = spawn(
    '/usr/bin/unshare',
    [
      '--mount',
      '--pid',
      '--fork',
      '--kill-child',
      '--',
      'bash',
      join(REPOSITORY_ROOT, 'tools/images/run-in-rootfs.sh'),
      image.rootfs,
      String(image.uid),
      String(image.gid),
      image.cwd,
      ...args,
    ],
    { env: { ...image.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let text = '';
  child.stdout?.on('data', (d: Buffer) => (text += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (text += d.toString()));
  const ended = new Promise<number | null>((resolve) =>
    child.once('close', (code) => resolve(code)),
  );
  const running = () => child.exitCode === null && child.signalCode === null;
  return {
    child,
    output: () => text,
    running,
    ended,
    kill: async () => {
      // The command is PID 1 of its namespace (its death ends every process there). It changed
      // its user, which clears the parent-death signal unshare --kill-child relies on: killed
      // by its host PID, unshare's one child.
      const pid = child.pid;
      if (running() && pid !== undefined) {
        const children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim();
        for (const inner of children.split(/\s+/).filter(Boolean))
          process.kill(Number(inner), 'SIGKILL');
        child.kill('SIGKILL');
      }
      await ended;
    },
  };
}

/** Waits until `url` answers 200 while `proc` runs; the body as text. */
export async function waitForOk(proc: ImageProcess, url: string, timeoutMs = 60_000) {
  return waitFor(
    async () => {
      if (!proc.running()) throw new WaitAborted(`the process ended:\n${proc.output()}`);
      const res = await fetch(url).catch(() => undefined);
      if (res?.status !== 200) throw new Error(`${url}: ${res?.status ?? 'not listening'}`);
      return res.text();
    },
    { timeoutMs, intervalMs: 250, what: `${url} answering 200` },
  );
}
