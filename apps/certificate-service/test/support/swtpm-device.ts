import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { createPublicKey, type KeyObject } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { parseTpmPublic, tpm2ToolsCredentialFile, tpmQualifyingData } from '@platform/pki';
import { makeCsrWithSigner } from '@platform/pki/testing';
import { createTpmStateWithEkCert, type SwtpmEkState } from './swtpm-ek';

const run = promisify(execFile);

/** What `POST /enroll/nonce` answers for a first attested enroll (base64 fields). */
export interface ActivationChallenge {
  credential_blob: string;
  encrypted_secret: string;
}

/** The `tpm` object of an enroll body. */
export interface TpmEvidenceBody {
  ek_certificate: string;
  ek_chain: string[];
  ak_public: string;
  quote_info: string;
  quote_signature: string;
  activated_credential?: string;
  key_public?: string;
  certify_info?: string;
  certify_signature?: string;
}

/**
 * A running software TPM 2.0 (Debian's swtpm) driven with tpm2-tools exactly as the Linux
 * agent drives a hardware one: EK, AK, a signing key for the CSR, credential activation,
 * quotes and certify. One instance per test; `stop()` kills swtpm and removes the files.
 */
export class SwtpmDevice {
  private constructor(
    readonly dir: string,
    readonly ek: SwtpmEkState,
    private readonly process: ChildProcess,
    private readonly tcti: string,
  ) {}

  akPublic!: Buffer;
  keyPublic!: Buffer;

  static async start(): Promise<SwtpmDevice> {
    const dir = await mkdtemp(join(tmpdir(), 'swtpm-'));
    const ek = await createTpmStateWithEkCert(dir);
    const device = await SwtpmDevice.listen(dir, ek);
    try {
      await device.tpm('tpm2_createek', '-c', 'ek.ctx', '-G', 'rsa', '-u', 'ek.pub');
      await device.createAk();
      await device.tpm(
        'tpm2_createprimary',
        '-C',
        'o',
        '-g',
        'sha256',
        '-G',
        'ecc',
        '-c',
        'srk.ctx',
      );
      await device.createKey();
    } catch (error) {
      await device.stop();
      throw error;
    }
    return device;
  }

  /**
   * swtpm on two free consecutive ports, answering. The ports are free when picked but not
   * held: another process (any outgoing connection takes an ephemeral port) can take one
   * before swtpm binds it, and swtpm then exits. Such a start is retried on new ports.
   */
  private static async listen(dir: string, ek: SwtpmEkState): Promise<SwtpmDevice> {
    let last: unknown;
    for (let attempt = 0; attempt < 4; attempt++) {
      const port = await freePortPair();
      const ctrl = port + 1; // the swtpm TCTI reaches the control channel on the next port
      const child = spawn(
        'swtpm',
        [
          'socket',
          '--tpm2',
          '--tpmstate',
          `dir=${ek.stateDir}`,
          '--server',
          `type=tcp,port=${port},bindaddr=127.0.0.1`,
          '--ctrl',
          `type=tcp,port=${ctrl},bindaddr=127.0.0.1`,
          '--flags',
          'not-need-init,startup-clear',
        ],
        { stdio: 'ignore' },
      );
      const device = new SwtpmDevice(dir, ek, child, `swtpm:host=127.0.0.1,port=${port}`);
      try {
        await device.waitReady();
        return device;
      } catch (error) {
        last = error;
        child.kill('SIGKILL');
      }
    }
    await rm(dir, { recursive: true, force: true });
    throw new Error(`swtpm did not start on four pairs of ports: ${String(last)}`);
  }

  async stop(): Promise<void> {
    this.process.kill('SIGKILL');
    await rm(this.dir, { recursive: true, force: true });
  }

  /** A new attestation key (as after an OS reinstall that keeps the TPM). */
  async createAk(): Promise<void> {
    await this.tpm(
      'tpm2_createak',
      ...['-C', 'ek.ctx', '-c', 'ak.ctx', '-G', 'ecc', '-g', 'sha256', '-s', 'ecdsa'],
      ...['-u', 'ak.pub', '-n', 'ak.name', '-f', 'tss'],
    );
    this.akPublic = await readFile(join(this.dir, 'ak.pub'));
  }

  /** A new P-256 signing key under the storage root key: the CSR's key. */
  async createKey(): Promise<void> {
    await this.tpm(
      'tpm2_create',
      ...['-C', 'srk.ctx', '-G', 'ecc256:ecdsa-sha256', '-u', 'key.pub', '-r', 'key.priv'],
    );
    await this.tpm(
      'tpm2_load',
      '-C',
      'srk.ctx',
      '-u',
      'key.pub',
      '-r',
      'key.priv',
      '-c',
      'key.ctx',
    );
    this.keyPublic = await readFile(join(this.dir, 'key.pub'));
  }

  get keyObject(): KeyObject {
    return parseTpmPublic(this.keyPublic).publicKey;
  }

  /** PEM CSR whose key lives in this TPM (signed with `tpm2_sign -d`). */
  async csr(commonName: string): Promise<string> {
    const der = await makeCsrWithSigner({
      commonName,
      publicKey: this.keyObject,
      sign: (digest) => this.signDigest(digest),
    });
    return toPem('CERTIFICATE REQUEST', der);
  }

  async signDigest(digest: Buffer): Promise<Buffer> {
    await writeFile(join(this.dir, 'digest.bin'), digest);
    await this.tpm(
      'tpm2_sign',
      ...['-c', 'key.ctx', '-g', 'sha256', '-d', '-f', 'plain', '-o', 'digest.sig', 'digest.bin'],
    );
    return readFile(join(this.dir, 'digest.sig'));
  }

  /** A signature by the AK over `message` (the TPM hashes it; a TPMT_SIGNATURE). */
  async signWithAk(message: Buffer): Promise<Buffer> {
    await writeFile(join(this.dir, 'message.bin'), message);
    await this.tpm('tpm2_sign', '-c', 'ak.ctx', '-g', 'sha256', '-o', 'message.sig', 'message.bin');
    return readFile(join(this.dir, 'message.sig'));
  }

  /** ActivateCredential through the EK's policy session: the secret, if the TPM releases it. */
  async activate(challenge: ActivationChallenge): Promise<Buffer> {
    const file = tpm2ToolsCredentialFile({
      credentialBlob: Buffer.from(challenge.credential_blob, 'base64'),
      encryptedSecret: Buffer.from(challenge.encrypted_secret, 'base64'),
    });
    await writeFile(join(this.dir, 'cred.in'), file);
    await this.tpm('tpm2_startauthsession', '--policy-session', '-S', 'session.ctx');
    await this.tpm('tpm2_policysecret', '-S', 'session.ctx', '-c', 'e');
    try {
      await this.tpm(
        'tpm2_activatecredential',
        ...['-c', 'ak.ctx', '-C', 'ek.ctx', '-i', 'cred.in', '-o', 'cred.out'],
        ...['-P', 'session:session.ctx'],
      );
    } finally {
      await this.tpm('tpm2_flushcontext', 'session.ctx').catch(() => undefined);
    }
    return readFile(join(this.dir, 'cred.out'));
  }

  /** A quote by the AK whose qualifying data is SHA-256 of `nonce`. */
  async quote(nonce: string): Promise<{ info: Buffer; signature: Buffer }> {
    await this.tpm(
      'tpm2_quote',
      ...['-c', 'ak.ctx', '-l', 'sha256:0,1,2,3,7', '-g', 'sha256'],
      ...['-q', tpmQualifyingData(nonce).toString('hex'), '-m', 'quote.msg', '-s', 'quote.sig'],
    );
    return {
      info: await readFile(join(this.dir, 'quote.msg')),
      signature: await readFile(join(this.dir, 'quote.sig')),
    };
  }

  /** The AK's certify of the CSR key. */
  async certify(): Promise<{ info: Buffer; signature: Buffer }> {
    await this.tpm(
      'tpm2_certify',
      ...[
        '-c',
        'key.ctx',
        '-C',
        'ak.ctx',
        '-g',
        'sha256',
        '-o',
        'certify.msg',
        '-s',
        'certify.sig',
      ],
    );
    return {
      info: await readFile(join(this.dir, 'certify.msg')),
      signature: await readFile(join(this.dir, 'certify.sig')),
    };
  }

  /** The `tpm` object of `POST /enroll/nonce`. */
  nonceBody(): { ek_certificate: string; ak_public: string } {
    return {
      ek_certificate: this.ek.ekCertDer.toString('base64'),
      ak_public: this.akPublic.toString('base64'),
    };
  }

  /**
   * The `tpm` object of `POST /enroll` for `nonce`: the quote over it, the certify of the
   * CSR key, and the activated credential when the nonce came with a challenge.
   */
  async evidence(
    nonce: string,
    challenge?: ActivationChallenge | null,
    options: { certify?: boolean } = {},
  ): Promise<TpmEvidenceBody> {
    const quote = await this.quote(nonce);
    const body: TpmEvidenceBody = {
      ...this.nonceBody(),
      ek_chain: this.ek.intermediatesDer.map((d) => d.toString('base64')),
      quote_info: quote.info.toString('base64'),
      quote_signature: quote.signature.toString('base64'),
    };
    if (challenge) body.activated_credential = (await this.activate(challenge)).toString('base64');
    if (options.certify !== false) {
      const certify = await this.certify();
      body.key_public = this.keyPublic.toString('base64');
      body.certify_info = certify.info.toString('base64');
      body.certify_signature = certify.signature.toString('base64');
    }
    return body;
  }

  get ekPublicKey(): KeyObject {
    return createPublicKey({ key: this.ek.ekCertDer, format: 'der', type: 'spki' });
  }

  /** Until swtpm answers; fails at once when it exited (a port taken), or after ~20 s. */
  private async waitReady(): Promise<void> {
    let exited = this.process.exitCode !== null || this.process.signalCode !== null;
    this.process.once('exit', () => (exited = true));
    let last: unknown;
    const deadline = Date.now() + 20_000;
    while (!exited && Date.now() < deadline) {
      try {
        await this.tpm('tpm2_getcap', 'properties-fixed');
        return;
      } catch (error) {
        last = error;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    }
    throw new Error(`swtpm did not start${exited ? ' (it exited)' : ''}: ${String(last)}`);
  }

  /** One tpm2-tools command in the device's directory; transient objects flushed first. */
  private async tpm(command: string, ...args: string[]): Promise<string> {
    const env = { ...process.env, TPM2TOOLS_TCTI: this.tcti };
    const options = { cwd: this.dir, env, timeout: 30_000 };
    if (command !== 'tpm2_getcap' && command !== 'tpm2_flushcontext') {
      await run('tpm2_flushcontext', ['-t'], options);
    }
    try {
      return (await run(command, args, options)).stdout;
    } catch (error) {
      const e = error as { stderr?: string; message: string };
      throw new Error(`${command} failed: ${e.message}\n${e.stderr ?? ''}`);
    }
  }
}

function toPem(label: string, der: Buffer): string {
  const lines = der.toString('base64').match(/.{1,64}/g) ?? [];
  return `-----BEGIN ${label}-----\n${lines.join('\n')}\n-----END ${label}-----\n`;
}

/** A free TCP port whose successor is free too. */
async function freePortPair(): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const port = await listenOn(0);
    if (port > 0 && port < 65535 && (await listenOn(port + 1)) === port + 1) return port;
  }
  throw new Error('no two consecutive free ports');
}

/** Listens on `port` (0: any) and closes again; the port it got, or -1 when taken. */
function listenOn(port: number): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(-1));
    server.listen(port, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : -1));
    });
  });
}
