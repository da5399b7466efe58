#!/usr/bin/env node
// The Debian package platform-device-agent, around the single executable. `npx nx run
// device-agent:package-deb` runs this after `device-agent:package`; so can a clone directly:
//
//   node apps/device-agent/packaging/build-deb.mjs [--executable FILE] [--out-dir DIR] [--compression xz|gzip|zstd|none]
//
// Lays out the package's tree with explicit modes (whatever the checkout's umask was), writes
// DEBIAN/control (version from the workspace's package.json, architecture from the executable's
// machine), conffiles, md5sums and the maintainer scripts of deb/, and runs
// `dpkg-deb --root-owner-group --build` (files owned by root:root without fakeroot).
//
//   /usr/bin/certsvc-agent                                 0755  the executable (build-executable.mjs)
//   /usr/lib/systemd/system/platform-device-agent.service  0644  the unit (deb/)
//   /etc/default/platform-device-agent                     0644  its configuration, a conffile
//   /usr/share/doc/platform-device-agent/README.Debian     0644  where to start
//
// Writes DIR/platform-device-agent_<version>_<arch>.deb (DIR: dist/device-agent). Compressed with
// zstd by default (3 s here, 29 MiB; dpkg >= 1.21.18: Debian 12, Ubuntu 22.04 and later);
// `--compression xz` for an older dpkg (21 MiB, but ~2 min on the 2-core machine).
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  chmodSync,
  copyFileSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const root = resolve(here, '../../..');
const PACKAGE = 'platform-device-agent';

function fail(message) {
  process.stderr.write(`build-deb: ${message}\n`);
  process.exit(1);
}

function options(argv) {
  const outDir = join(root, 'dist/device-agent');
  const opts = { outDir, executable: undefined, compression: 'zstd' };
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i];
    if (arg === '--out-dir' && argv[i + 1]) opts.outDir = resolve(argv[(i += 1)]);
    else if (arg === '--executable' && argv[i + 1]) opts.executable = resolve(argv[(i += 1)]);
    else if (arg === '--compression' && ['xz', 'gzip', 'zstd', 'none'].includes(argv[i + 1] ?? ''))
      opts.compression = argv[(i += 1)];
    else
      fail(
        `unknown argument ${arg} (--executable FILE, --out-dir DIR, --compression xz|gzip|zstd|none)`,
      );
  }
  opts.executable ??= join(opts.outDir, 'certsvc-agent');
  return opts;
}

/** Debian's name of the executable's machine, read from its ELF header (e_machine). */
function debianArch(file) {
  const header = readFileSync(file).subarray(0, 20);
  if (header.readUInt32BE(0) !== 0x7f454c46) fail(`${file} is not an ELF executable`);
  const machine = header.readUInt16LE(18);
  const arch = { 0x3e: 'amd64', 0xb7: 'arm64', 0x28: 'armhf' }[machine];
  if (!arch) fail(`${file}: unknown ELF machine 0x${machine.toString(16)}`);
  return arch;
}

/** Puts `source` (`{ file }` to copy, `{ text }` to write) at `path` in the tree, mode `mode`. */
function place(tree, path, source, mode) {
  const target = join(tree, path);
  mkdirSync(dirname(target), { recursive: true });
  if (source.file) copyFileSync(source.file, target);
  else writeFileSync(target, source.text);
  chmodSync(target, mode);
}

function filesUnder(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? filesUnder(join(dir, entry.name)) : [join(dir, entry.name)],
  );
}

function dirsUnder(dir) {
  return readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .flatMap((entry) => [join(dir, entry.name), ...dirsUnder(join(dir, entry.name))]);
}

const README = `platform-device-agent
=====================

certsvc-agent, the certificate service's device agent, as one executable (Node.js built in).

1. Set CERTSVC_SERVER and CERTSVC_SERIAL in /etc/default/platform-device-agent.
2. systemctl enable --now platform-device-agent
3. An administrator approves the device's request; journalctl -u platform-device-agent shows
   "certificate installed" and "checked in".

The state (key, certificate, CA bundle, agent secret) is in /var/lib/platform-device-agent
(0700, files 0600), owned by the system user platform-device-agent:
  sudo -u platform-device-agent certsvc-agent status --state-dir /var/lib/platform-device-agent
Purging the package deletes it (the device's key); removing keeps it.
`;

function main() {
  const opts = options(process.argv.slice(2));
  try {
    statSync(opts.executable);
  } catch {
    fail(`${opts.executable} does not exist: build it first (npx nx run device-agent:package)`);
  }
  const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const arch = debianArch(opts.executable);
  const tree = join(opts.outDir, 'deb-root');
  rmSync(tree, { recursive: true, force: true });
  mkdirSync(tree, { recursive: true });

  place(tree, 'usr/bin/certsvc-agent', { file: opts.executable }, 0o755);
  place(
    tree,
    `usr/lib/systemd/system/${PACKAGE}.service`,
    { file: join(here, 'deb', `${PACKAGE}.service`) },
    0o644,
  );
  place(tree, `etc/default/${PACKAGE}`, { file: join(here, 'deb', 'default') }, 0o644);
  place(tree, `usr/share/doc/${PACKAGE}/README.Debian`, { text: README }, 0o644);

  const payload = filesUnder(tree);
  const md5sums = payload
    .map(
      (file) =>
        `${createHash('md5').update(readFileSync(file)).digest('hex')}  ${relative(tree, file)}\n`,
    )
    .join('');
  const installedKiB = Math.ceil(
    payload.reduce((sum, file) => sum + statSync(file).size, 0) / 1024,
  );
  const control = readFileSync(join(here, 'deb', 'control.in'), 'utf8')
    .replace('@VERSION@', version)
    .replace('@ARCH@', arch)
    .replace('@INSTALLED_SIZE@', String(installedKiB));
  place(tree, 'DEBIAN/control', { text: control }, 0o644);
  place(tree, 'DEBIAN/conffiles', { file: join(here, 'deb', 'conffiles') }, 0o644);
  place(tree, 'DEBIAN/md5sums', { text: md5sums }, 0o644);
  for (const script of ['postinst', 'prerm', 'postrm'])
    place(tree, `DEBIAN/${script}`, { file: join(here, 'deb', script) }, 0o755);
  for (const dir of [tree, ...dirsUnder(tree)]) chmodSync(dir, 0o755);

  const deb = join(opts.outDir, `${PACKAGE}_${version}_${arch}.deb`);
  const built = spawnSync(
    'dpkg-deb',
    ['--root-owner-group', `-Z${opts.compression}`, '--build', tree, deb],
    { encoding: 'utf8' },
  );
  if (built.error) fail(`dpkg-deb: ${built.error.message} (Debian's dpkg package)`);
  if (built.status !== 0) fail(`dpkg-deb --build: ${built.stderr.trim()}`);
  rmSync(tree, { recursive: true, force: true });
  const mb = (statSync(deb).size / 2 ** 20).toFixed(1);
  const fields = execFileSync('dpkg-deb', ['--field', deb, 'Package', 'Version', 'Architecture'], {
    encoding: 'utf8',
  });
  process.stdout.write(`${deb}: ${mb} MiB (${opts.compression})\n${fields}`);
}

try {
  main();
} catch (error) {
  fail(error instanceof Error ? error.message : String(error));
}
