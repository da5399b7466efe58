import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { enrollDevice, type EnrolledDevice } from '../fixtures/enroll';
import { opensslCsr } from '../fixtures/openssl';
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
    await this.newPendingDevice();
    this.reenrolling = await enrollDevice(this.t);
    this.decommissioned = await enrollDevice(this.t);
    await this.newAllowlistEntry();
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

  /** A one-use enrollment nonce. */
  async nonce(): Promise<string> {
    const res = await this.http.post('/api/v1/enroll/nonce').expect(201);
    return (res.body as { nonce: string }).nonce;
  }
}
