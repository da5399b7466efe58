import { createHash, createPublicKey, type KeyObject } from 'node:crypto';
import { chmodSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { CsrSigner } from '../crypto/csr';
import { StateDir } from '../state/state-dir';
import { Tpm2Tools } from './tpm2-tools';

/** NV index of the RSA 2048 EK certificate (TCG EK Credential Profile). */
const EK_CERT_NV_INDEX = '0x01c00002';

/** The CSR key, the renewal key and the long-lived continuity key (tpm-attestation.md). */
export type TpmKeyName = 'key' | 'renewal-key' | 'continuity';

export interface TpmKey {
  readonly publicKey: KeyObject;
  readonly signer: CsrSigner;
  readonly reused: boolean;
}

/**
 * The device's TPM driven with tpm2-tools (docs/certificate-service/tpm-attestation.md, "The
 * agent's steps"). Everything it keeps lives in `<state>/tpm/` (0700, files 0600): the EK
 * certificate, the AK and the CSR keys as TPM2B_PUBLIC/TPM2B_PRIVATE blobs, which only this
 * TPM can load (the private parts are wrapped by the TPM's own keys). The EK and the storage root
 * key are derived again each run, the AK and keys loaded again: it survives reboots.
 */
export class TpmDevice {
  private constructor(
    readonly dir: StateDir,
    private readonly tools: Tpm2Tools,
  ) {}

  static async open(stateDir: StateDir, tcti?: string): Promise<TpmDevice> {
    const dir = new StateDir(join(stateDir.path, 'tpm'));
    dir.ensure();
    const device = new TpmDevice(dir, new Tpm2Tools(dir.path, tcti));
    await device.start();
    return device;
  }

  private async start(): Promise<void> {
    await this.tpm('tpm2_createek', '-c', 'ek.ctx', '-G', 'rsa', '-u', 'ek.pub');
    await this.tpm('tpm2_createprimary', '-C', 'o', '-g', 'sha256', '-G', 'ecc', '-c', 'srk.ctx');
    if (!this.dir.has('ek.der')) {
      await this.tpm('tpm2_nvread', '-C', 'o', '-o', 'ek.der.new', EK_CERT_NV_INDEX);
      this.dir.promote('ek.der.new', 'ek.der');
    }
    if (this.dir.has('ak.pub') && this.dir.has('ak.priv')) {
      await this.withEkSession((session) =>
        this.tpm(
          'tpm2_load',
          '-C',
          'ek.ctx',
          '-P',
          session,
          '-u',
          'ak.pub',
          '-r',
          'ak.priv',
          '-c',
          'ak.ctx',
        ),
      );
    } else {
      await this.tpm(
        'tpm2_createak',
        ...['-C', 'ek.ctx', '-c', 'ak.ctx', '-G', 'ecc', '-g', 'sha256', '-s', 'ecdsa'],
        ...['-u', 'ak.pub.new', '-r', 'ak.priv.new', '-n', 'ak.name', '-f', 'tss'],
      );
      this.dir.promote('ak.priv.new', 'ak.priv');
      this.dir.promote('ak.pub.new', 'ak.pub');
    }
    this.tighten();
  }

  /**
   * The signing key `<name>.pub/.priv` (P-256, created under the storage root key inside the
   * TPM), created when absent, loaded as `<name>.ctx`.
   */
  async key(name: TpmKeyName): Promise<TpmKey> {
    const reused = this.dir.has(`${name}.pub`) && this.dir.has(`${name}.priv`);
    if (!reused) {
      await this.tpm(
        'tpm2_create',
        ...[
          '-C',
          'srk.ctx',
          '-G',
          'ecc256:ecdsa-sha256',
          '-u',
          `${name}.pub.new`,
          '-r',
          `${name}.priv.new`,
        ],
      );
      this.dir.promote(`${name}.priv.new`, `${name}.priv`);
      this.dir.promote(`${name}.pub.new`, `${name}.pub`);
    }
    await this.tpm(
      'tpm2_load',
      '-C',
      'srk.ctx',
      '-u',
      `${name}.pub`,
      '-r',
      `${name}.priv`,
      '-c',
      `${name}.ctx`,
    );
    await this.tpm('tpm2_readpublic', '-c', `${name}.ctx`, '-f', 'pem', '-o', `${name}.spki.pem`);
    this.tighten();
    const publicKey = createPublicKey(this.dir.read(`${name}.spki.pem`) ?? '');
    const signer: CsrSigner = async (info) => {
      this.dir.write('digest.bin', createHash('sha256').update(info).digest());
      await this.tpm(
        'tpm2_sign',
        '-c',
        `${name}.ctx`,
        '-g',
        'sha256',
        '-d',
        '-f',
        'plain',
        '-o',
        'digest.sig',
        'digest.bin',
      );
      return this.dir.readBytes('digest.sig') ?? Buffer.alloc(0);
    };
    return { publicKey, signer, reused };
  }

  /** The `tpm` object of `POST /enroll/nonce`. */
  nonceBody(): { ek_certificate: string; ak_public: string } {
    return { ek_certificate: this.base64('ek.der'), ak_public: this.base64('ak.pub') };
  }

  /** ActivateCredential of the nonce's challenge (tpm2-tools credential file, base64). */
  async activate(credentialFile: string): Promise<string> {
    this.dir.write('cred.in', Buffer.from(credentialFile, 'base64'));
    await this.withEkSession((session) =>
      this.tpm(
        'tpm2_activatecredential',
        '-c',
        'ak.ctx',
        '-C',
        'ek.ctx',
        '-i',
        'cred.in',
        '-o',
        'cred.out',
        '-P',
        session,
      ),
    );
    return this.base64('cred.out');
  }

  /** The AK's quote over SHA-256 of the nonce, and its certify of the key `name`. */
  async evidence(nonce: string, name: 'key' | 'renewal-key'): Promise<Record<string, string>> {
    const qualifying = createHash('sha256').update(nonce, 'utf8').digest('hex');
    await this.tpm(
      'tpm2_quote',
      ...['-c', 'ak.ctx', '-l', 'sha256:0,1,2,3,7', '-g', 'sha256', '-q', qualifying],
      ...['-m', 'quote.msg', '-s', 'quote.sig'],
    );
    await this.tpm(
      'tpm2_certify',
      ...[
        '-c',
        `${name}.ctx`,
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
    this.tighten();
    return {
      quote_info: this.base64('quote.msg'),
      quote_signature: this.base64('quote.sig'),
      key_public: this.base64(`${name}.pub`),
      certify_info: this.base64('certify.msg'),
      certify_signature: this.base64('certify.sig'),
    };
  }

  /**
   * A signature with the AK over `message` (token recovery, enrollment.md): the AK is a
   * restricted key, so the TPM hashes the message itself (it does not start with
   * TPM_GENERATED); DER ECDSA.
   */
  async signWithAk(message: Buffer): Promise<Buffer> {
    this.dir.write('ak-message.bin', message);
    await this.tpm(
      'tpm2_sign',
      ...['-c', 'ak.ctx', '-g', 'sha256', '-f', 'plain', '-o', 'ak-message.sig', 'ak-message.bin'],
    );
    this.tighten();
    return this.dir.readBytes('ak-message.sig') ?? Buffer.alloc(0);
  }

  /** After a renewal: the renewal key becomes the key (journalled like the certificate). */
  promoteRenewalKey(): void {
    this.dir.promote('renewal-key.priv', 'key.priv');
    this.dir.promote('renewal-key.pub', 'key.pub');
  }

  private async withEkSession(use: (session: string) => Promise<string>): Promise<void> {
    await this.tpm('tpm2_startauthsession', '--policy-session', '-S', 'session.ctx');
    try {
      await this.tpm('tpm2_policysecret', '-S', 'session.ctx', '-c', 'e');
      await use('session:session.ctx');
    } finally {
      await this.tools.run('tpm2_flushcontext', 'session.ctx').catch(() => undefined);
    }
  }

  private base64(name: string): string {
    return (this.dir.readBytes(name) ?? Buffer.alloc(0)).toString('base64');
  }

  private tpm(command: string, ...args: string[]): Promise<string> {
    return this.tools.run(command, ...args);
  }

  /** tpm2-tools create files with the process umask: 0600 for every file here. */
  private tighten(): void {
    for (const name of readdirSync(this.dir.path)) chmodSync(join(this.dir.path, name), 0o600);
  }
}
