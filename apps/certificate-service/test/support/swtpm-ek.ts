import { execFile } from 'node:child_process';
import { mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { X509Certificate } from 'node:crypto';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface SwtpmEkState {
  /** The TPM state directory (`--tpmstate`) — start `swtpm socket --tpmstate dir=<stateDir> --tpm2` on it. */
  stateDir: string;
  /** The RSA 2048 EK certificate swtpm_setup wrote into NV index 0x01c00002 (DER). */
  ekCertDer: Buffer;
  /** The local CA's issuing certificate (`ca/issuercert.pem`, DER): the intermediate under the root. */
  intermediatesDer: Buffer[];
  /** The fresh self-signed root swtpm_localca created (`ca/swtpm-localca-rootca-cert.pem`): the "vendor root". */
  vendorRootPem: string;
}

/**
 * A freshly manufactured software TPM 2.0 with a realistic EK certificate, everything inside `dir`.
 *
 * Runs Debian's `swtpm_setup --tpm2 --create-ek-cert` with its own swtpm_setup.conf and
 * swtpm-localca.conf whose statedir is `<dir>/ca`: swtpm_localca finds no signing key there and
 * creates a new root CA ("swtpm-localca-rootca") and an intermediate ("swtpm-localca") that signs
 * the EK certificates — so every call yields its own, unrelated vendor root. Nothing is written
 * outside `dir` (XDG_CONFIG_HOME and HOME point at it; swtpm_setup's temporary cert directory goes
 * to TMPDIR=<dir>). Callers pass a unique `dir` per TPM (e.g. `mkdtemp`); calls on different dirs
 * may run in parallel. Takes about a second (one RSA 2048 and one ECC P-384 EK are created).
 *
 * swtpm writes `ek-rsa2048.crt` and `ek-secp384r1.crt` into `<dir>/ekcerts`; only the RSA one is
 * returned. Its quirks: subject `CN=unknown`, a critical subjectAltName directoryName with the TPM
 * manufacturer/model/version (2.23.133.2.1/2/3), EKU 2.23.133.8.1, keyUsage keyEncipherment.
 */
export async function createTpmStateWithEkCert(dir: string): Promise<SwtpmEkState> {
  const base = resolve(dir);
  const stateDir = join(base, 'state');
  const caDir = join(base, 'ca');
  const ekDir = join(base, 'ekcerts');
  const tmpDir = join(base, 'tmp');
  for (const d of [stateDir, caDir, ekDir, tmpDir])
    await mkdir(d, { recursive: true, mode: 0o700 });

  const localcaConf = join(base, 'swtpm-localca.conf');
  const localcaOptions = join(base, 'swtpm-localca.options');
  const setupConf = join(base, 'swtpm_setup.conf');
  await writeFile(
    localcaConf,
    [
      `statedir = ${caDir}`,
      `signingkey = ${join(caDir, 'signkey.pem')}`,
      `issuercert = ${join(caDir, 'issuercert.pem')}`,
      `certserial = ${join(caDir, 'certserial')}`,
      '',
    ].join('\n'),
  );
  await writeFile(
    localcaOptions,
    ['--platform-manufacturer Test', '--platform-version 2.1', '--platform-model swtpm', ''].join(
      '\n',
    ),
  );
  await writeFile(
    setupConf,
    [
      'create_certs_tool = /usr/bin/swtpm_localca',
      `create_certs_tool_config = ${localcaConf}`,
      `create_certs_tool_options = ${localcaOptions}`,
      'active_pcr_banks = sha256',
      '',
    ].join('\n'),
  );

  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    XDG_CONFIG_HOME: base,
    HOME: base,
    TMPDIR: tmpDir,
  };
  try {
    await run(
      'swtpm_setup',
      [
        '--tpm2',
        '--tpmstate',
        stateDir,
        '--create-ek-cert',
        '--config',
        setupConf,
        '--write-ek-cert-files',
        ekDir,
        '--overwrite',
      ],
      { env, timeout: 60_000, maxBuffer: 4 * 1024 * 1024 },
    );
  } catch (error) {
    const e = error as { stdout?: string; stderr?: string; message: string };
    throw new Error(`swtpm_setup failed: ${e.message}\n${e.stdout ?? ''}\n${e.stderr ?? ''}`);
  }

  const files = await readdir(ekDir);
  const rsa = files.find((f) => /^ek-rsa\d+\.crt$/.test(f));
  if (!rsa) throw new Error(`swtpm_setup wrote no RSA EK certificate (found: ${files.join(', ')})`);
  const ekCertDer = await readFile(join(ekDir, rsa));
  const intermediate = new X509Certificate(await readFile(join(caDir, 'issuercert.pem')));
  const vendorRootPem = await readFile(join(caDir, 'swtpm-localca-rootca-cert.pem'), 'utf8');
  return { stateDir, ekCertDer, intermediatesDer: [intermediate.raw], vendorRootPem };
}
