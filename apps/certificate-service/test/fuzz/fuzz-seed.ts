import { generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import request from 'supertest';
import { enrollDevice, type EnrolledDevice } from '../fixtures/enroll';
import { opensslCsr, opensslSelfSignedCa } from '../fixtures/openssl';
import { issuedDevice, type IssuedDevice } from '../fixtures/issue';
import {
  bearer,
  createServiceAccount,
  createUser,
  login,
  loginAdmin,
  type TestUser,
} from '../support/sessions';
import { ADMIN_EMAIL, ADMIN_PASSWORD, type TestApp } from '../support/test-app';
import { ocspGetPathValue } from '../pki/ocsp-get-path';
import { DevicesRepository } from '../../src/modules/devices/devices.repository';
import { recoverMessage } from '../../src/modules/token-recover/recover-proof';
import { appAttestPki, appAttestReceipt } from '../app-attest/app-attest-fixture';

/** The App Attest root the fuzzed app trusts (its env) and the seed attests under. */
export const FUZZ_APP_ATTEST = appAttestPki();

/** Real objects the fuzz requests address, replaced when a request consumes one. */
export class CertificateFuzzSeed {
  admin!: TestUser;
  /** A viewer who changes its own password (`/auth/change-password`). */
  member!: TestUser;
  /** A separate admin session whose refresh token the refresh and logout routes rotate. */
  refreshToken = '';
  serviceAccountToken = '';
  targetAccountId = '';
  targetUserEmail = '';
  issued!: IssuedDevice;
  pending!: EnrolledDevice;
  reenrolling!: EnrolledDevice;
  decommissioned!: EnrolledDevice;
  userCsrPem = '';
  allowlistSerial = '';
  /** The device registering raw SSH keys, a pending key of it and that key's line. */
  sshDevice!: EnrolledDevice;
  pendingSshKeyId = '';
  sshKeyLine = '';
  /** A principal alias with one member, and a key-holder token. */
  readonly aliasName = 'fuzzalias';
  readonly aliasMember = 'fuzz-alias-member@certsvc.test';
  keyholderTokenId = '';
  /** A device with the `ssh` purpose and an owner: `POST /enroll/ssh` files SSH requests for it. */
  sshCertificateDevice!: EnrolledDevice;
  /** A registered Kubernetes cluster, and the API-server CA bundle clusters are created with. */
  k8sClusterId = '';
  k8sCaBundle = '';
  /** `GET /pki/ocsp/{path}`: a real OCSP request (base64, unencoded) for the issued certificate. */
  ocspRequestPath = '';
  /** A webhook endpoint (never called: the fuzz app does not deliver). */
  webhookId = '';
  /** A log snapshot of the issued device (the fuzz may delete it). */
  logSnapshotId = '';
  /** A Wi-Fi network (the fuzz may delete the previous one). */
  networkId = '';
  /** An open issuance directive on the issued device (cancel and report close it). */
  directiveId = '';
  /** A registered TPM vendor root (the fuzz may delete it), and a CA not registered yet. */
  tpmRootId = '';
  tpmRootPem = '';

  /** A device with a pinned continuity key (`POST /enroll/token-recover`) and its private half. */
  recovering!: EnrolledDevice;
  recoveringKey!: KeyObject;

  constructor(private readonly t: TestApp) {}

  private get http() {
    return request(this.t.app.getHttpServer());
  }

  async seed(): Promise<void> {
    this.admin = await loginAdmin(this.t);
    this.member = await createUser(this.t, this.admin, ['cert-viewer'], 'fuzz-member');
    await this.newRefreshSession();
    this.serviceAccountToken = (
      await createServiceAccount(this.t, this.admin, { allowed_purposes: ['wifi'] })
    ).token;
    await this.newTargetAccount();
    this.targetUserEmail = (
      await createUser(this.t, this.admin, ['cert-viewer'], 'fuzz-target')
    ).email;
    this.userCsrPem = opensslCsr('ec', 'fuzz-user').csrPem;
    await this.newIssuedDevice();
    this.ocspRequestPath = ocspGetPathValue(this.t, this.issued.certificateSerial);
    await this.newPendingDevice();
    this.reenrolling = await enrollDevice(this.t);
    this.decommissioned = await enrollDevice(this.t);
    await this.newAllowlistEntry();
    await this.newRecoveringDevice();
    this.sshDevice = await enrollDevice(this.t);
    this.sshKeyLine = sshEd25519Line();
    await this.newPendingSshKey();
    await this.newAlias();
    await this.newKeyholderToken();
    await this.newSshCertificateDevice();
    this.k8sCaBundle = opensslSelfSignedCa('fuzz-apiserver-ca');
    await this.newK8sCluster();
    await this.newWebhook();
    await this.newNetwork();
    await this.newLogSnapshot();
    this.tpmRootPem = opensslSelfSignedCa('fuzz-tpm-root-new');
    await this.newTpmRoot();
  }

  /** Registers a fresh self-signed CA as a TPM vendor root. */
  async newTpmRoot(): Promise<void> {
    const res = await this.http
      .post('/api/v1/settings/tpm-roots')
      .set(...bearer(this.admin.accessToken))
      .send({ name: 'fuzz', certificate_pem: opensslSelfSignedCa('fuzz-tpm-root') })
      .expect(201);
    this.tpmRootId = (res.body as { id: string }).id;
  }

  /** Uploads a log snapshot for the issued device (the fuzz may delete the previous one). */
  async newLogSnapshot(): Promise<void> {
    const res = await this.http
      .post(`/api/v1/requests/${this.issued.requestId}/logs`)
      .set('x-agent-secret', this.issued.agentSecret)
      .set('content-type', 'application/gzip')
      .send(gzipSync('{"level":"info","msg":"fuzz"}\n'))
      .expect(201);
    this.logSnapshotId = (res.body as { id: string }).id;
  }

  /** Enrolls a device and pins a fresh continuity key to it (through the devices module). */
  async newRecoveringDevice(): Promise<void> {
    const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    this.recovering = await enrollDevice(this.t);
    this.recoveringKey = privateKey;
    const devices = this.t.app.get(DevicesRepository);
    const row = await devices.findBySerial(this.recovering.serial);
    if (!row) throw new Error('the recovering device was not stored');
    await devices.update(row.id, {
      continuityKey: publicKey.export({ format: 'pem', type: 'spki' }).toString(),
    });
  }

  /** A valid `POST /enroll/token-recover` body: a fresh nonce signed with the continuity key. */
  async recoverBody(): Promise<Record<string, unknown>> {
    const nonce = await this.nonce();
    const message = recoverMessage('continuity', this.recovering.serial, nonce);
    return {
      serial: this.recovering.serial,
      nonce,
      key: 'continuity',
      signature: sign('sha256', message, this.recoveringKey).toString('base64'),
    };
  }

  /** Creates a Wi-Fi network (the fuzz may delete the previous one). */
  async newNetwork(): Promise<void> {
    const res = await this.http
      .post('/api/v1/admin/networks')
      .set(...bearer(this.admin.accessToken))
      .send({ kind: 'wifi', name: 'fuzz', ssid: `fuzz-${randomBytes(4).toString('hex')}` })
      .expect(201);
    this.networkId = (res.body as { id: string }).id;
  }

  /** Registers a webhook endpoint (the fuzz may delete the previous one). */
  async newWebhook(): Promise<void> {
    const res = await this.http
      .post('/api/v1/admin/webhooks')
      .set(...bearer(this.admin.accessToken))
      .send({ url: 'https://hooks.fuzz.test/certsvc', event_types: ['certificate.issued'] })
      .expect(201);
    this.webhookId = (res.body as { id: string }).id;
  }

  /** Registers a cluster under a fresh name (the fuzz may rename or delete the previous one). */
  async newK8sCluster(): Promise<void> {
    const res = await this.http
      .post('/api/v1/admin/k8s-clusters')
      .set(...bearer(this.admin.accessToken))
      .send({
        name: `fuzz-${randomBytes(4).toString('hex')}`,
        server_url: 'https://k8s.fuzz.test:6443',
        ca_bundle: this.k8sCaBundle,
      })
      .expect(201);
    this.k8sClusterId = (res.body as { id: string }).id;
  }

  async newSshCertificateDevice(): Promise<void> {
    const device = await enrollDevice(this.t);
    await this.http
      .put(`/api/v1/devices/${device.serial}/purposes`)
      .set(...bearer(this.admin.accessToken))
      .send({ purposes: ['wifi', 'ssh'] })
      .expect(200);
    await this.http
      .put(`/api/v1/devices/${device.serial}/owner`)
      .set(...bearer(this.admin.accessToken))
      .send({ owner: 'fuzz-ssh-owner@certsvc.test' })
      .expect(200);
    this.sshCertificateDevice = device;
  }

  /** Registers a fresh raw key of `sshDevice` (pending); approve, reject and revoke use it. */
  async newPendingSshKey(): Promise<void> {
    const res = await this.http
      .post('/api/v1/enroll/ssh-key')
      .send({
        serial: this.sshDevice.serial,
        enrollment_token: this.sshDevice.enrollmentToken,
        public_key: sshEd25519Line(),
      })
      .expect(201);
    this.pendingSshKeyId = (res.body as { id: string }).id;
  }

  /** (Re)creates the alias with its member; a 409 (it still exists) is fine. */
  async newAlias(): Promise<void> {
    await this.http
      .post('/api/v1/admin/principal-aliases')
      .set(...bearer(this.admin.accessToken))
      .send({ name: this.aliasName, members: [this.aliasMember] });
    await this.newAliasMember();
  }

  /** Puts the member back into the alias (a 409: still a member). */
  async newAliasMember(): Promise<void> {
    await this.http
      .post(`/api/v1/admin/principal-aliases/${this.aliasName}/members`)
      .set(...bearer(this.admin.accessToken))
      .send({ member: this.aliasMember });
  }

  async newKeyholderToken(): Promise<void> {
    const res = await this.http
      .post('/api/v1/admin/keyholder-tokens')
      .set(...bearer(this.admin.accessToken))
      .send({ name: 'fuzz', principals: [this.aliasName] })
      .expect(201);
    this.keyholderTokenId = (res.body as { id: string }).id;
  }

  async newRefreshSession(): Promise<void> {
    this.refreshToken = (await login(this.t, ADMIN_EMAIL, ADMIN_PASSWORD)).refreshToken;
  }

  /** Logout revokes a refresh token; signs the admin in again if it also ended the access. */
  async reloginIfSignedOut(): Promise<void> {
    const me = await this.http.get('/api/v1/auth/me').set(...bearer(this.admin.accessToken));
    if (me.status === 401) this.admin = await loginAdmin(this.t);
  }

  async reloginMember(password: string): Promise<void> {
    this.member = await login(this.t, this.member.email, password);
  }

  async newTargetAccount(): Promise<void> {
    this.targetAccountId = (await createServiceAccount(this.t, this.admin)).id;
  }

  /** Enrolled, approved (certificate issued) and with a pending `vpn` purpose request. */
  async newIssuedDevice(): Promise<void> {
    const device = await issuedDevice(this.t, this.admin.accessToken);
    this.issued = device;
    await this.http
      .put(`/api/v1/devices/${device.serial}/purposes`)
      .set(...bearer(this.admin.accessToken))
      .send({ purposes: ['wifi', 'user_mtls'] })
      .expect(200);
    await this.askPurpose();
    await this.newDirective();
  }

  /** Addresses `user_mtls` to a fresh person on the issued device. */
  async newDirective(): Promise<void> {
    const res = await this.http
      .post(`/api/v1/devices/${this.issued.serial}/issuance-directives`)
      .set(...bearer(this.admin.accessToken))
      .send({ purpose: 'user_mtls', user: `fz-${randomBytes(4).toString('hex')}@certsvc.test` })
      .expect(201);
    this.directiveId = (res.body as { id: string }).id;
  }

  /**
   * Files a pending purpose request for the issued device (the decision route decides it).
   * Not checked: after a decision the service may refuse a new request for a while.
   */
  async askPurpose(): Promise<void> {
    await this.http.post('/api/v1/enroll/purpose-request').send({
      serial: this.issued.serial,
      enrollment_token: this.issued.enrollmentToken,
      purpose: 'vpn',
      note: 'fuzz',
    });
  }

  async newPendingDevice(): Promise<void> {
    this.pending = await enrollDevice(this.t);
  }

  async newDecommissionedDevice(): Promise<void> {
    this.decommissioned = await enrollDevice(this.t);
  }

  async newAllowlistEntry(): Promise<void> {
    this.allowlistSerial = `FZ-${randomBytes(4).toString('hex').toUpperCase()}`;
    await this.http
      .post('/api/v1/admin/corp-allowlist')
      .set(...bearer(this.admin.accessToken))
      .send({ serial: this.allowlistSerial, note: 'fuzz' })
      .expect(201);
  }

  /** A fresh App Attest challenge of the issued device and a valid attestation over it. */
  appAttestReceipt(): Promise<Record<string, unknown>> {
    return appAttestReceipt(this.t, FUZZ_APP_ATTEST, this.issued.serial);
  }

  /** A one-use enrollment nonce. */
  async nonce(): Promise<string> {
    const res = await this.http.post('/api/v1/enroll/nonce').expect(201);
    return (res.body as { nonce: string }).nonce;
  }
}

/** A fresh Ed25519 public key as an authorized_keys line (`ssh-ed25519 <base64> fuzz@host`). */
export function sshEd25519Line(): string {
  const jwk = generateKeyPairSync('ed25519').publicKey.export({ format: 'jwk' });
  const raw = Buffer.from(jwk.x ?? '', 'base64url');
  const field = (bytes: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(bytes.length);
    return Buffer.concat([length, bytes]);
  };
  const blob = Buffer.concat([field(Buffer.from('ssh-ed25519')), field(raw)]);
  return `ssh-ed25519 ${blob.toString('base64')} fuzz@host`;
}
