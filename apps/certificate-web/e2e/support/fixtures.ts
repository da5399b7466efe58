import { expect, test as base, type APIRequestContext, type Page } from '@playwright/test';
import {
  expectAccessible,
  keepRequestsOnFailure,
  saveScreenshot,
  stackVar,
} from '@platform/web-ui/e2e';
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';

export { expect, expectAccessible };

/** This run's screenshots (playwright.config.ts chooses the run's output directory). */
export const SCREENSHOT_DIR = join(
  process.env.CERTIFICATE_WEB_TEST_OUTPUT ?? join(__dirname, '../../test-output'),
  'screenshots',
);

export async function screenshot(page: Page, name: string): Promise<void> {
  await saveScreenshot(page, SCREENSHOT_DIR, name);
}

export const webUrl = (): string => stackVar('CERT_WEB_URL');
export const admin = {
  email: () => stackVar('CERT_ADMIN_EMAIL'),
  password: () => stackVar('CERT_ADMIN_PASSWORD'),
};

export type Role = 'cert-admin' | 'cert-approver' | 'cert-viewer';

/** A unique name for this run (the tests share one database). */
export function unique(prefix: string): string {
  return `${prefix}-${Date.now().toString(36)}${randomBytes(2).toString('hex')}`.toUpperCase();
}

/** Signs in through the sign-in page with a local account. */
export async function signIn(page: Page, email: string, password: string): Promise<void> {
  await page.goto(`${webUrl()}/login`);
  await page.getByLabel('E-mail').fill(email);
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByTestId('current-user')).toHaveText(email);
}

const LICENSE_TOOL = join(__dirname, '../../../../tools/license/certsvc-license.mjs');

/** The certificate API through the UI's own proxy (seeding and checks). */
export class Api {
  constructor(
    readonly request: APIRequestContext,
    private token = '',
  ) {}

  /** This API signed in as another person. */
  async as(email: string, password: string): Promise<Api> {
    const res = await this.request.post(`${webUrl()}/api/v1/auth/local/login`, {
      data: { email, password },
    });
    expect(res.status(), await res.text()).toBe(200);
    return new Api(this.request, ((await res.json()) as { access_token: string }).access_token);
  }

  headers() {
    return { Authorization: `Bearer ${this.token}` };
  }

  async send<T>(method: 'GET' | 'POST' | 'PUT', path: string, data?: unknown): Promise<T> {
    const res = await this.request.fetch(`${webUrl()}${path}`, {
      method,
      headers: this.headers(),
      ...(data === undefined ? {} : { data }),
    });
    expect(res.ok(), `${method} ${path}: ${res.status()} ${await res.text()}`).toBe(true);
    return res.status() === 204 ? (undefined as T) : ((await res.json()) as T);
  }

  /** A local person with `roles`; returns the password. */
  async person(email: string, roles: Role[]): Promise<string> {
    const password = `Pw-${randomBytes(9).toString('base64url')}-7Aa`;
    await this.send('POST', '/api/v1/users/local', { email, password, roles });
    return password;
  }

  /**
   * A device registered through POST /enroll (EC key, CN = serial): its pending request. A
   * known device enrolls again with its enrollment token (a renewal).
   */
  async enroll(
    serial: string,
    enrollmentToken?: string,
  ): Promise<{ serial: string; requestId: string; enrollmentToken: string }> {
    const { nonce } = await this.send<{ nonce: string }>('POST', '/api/v1/enroll/nonce');
    // A CSR as an agent makes one: openssl (a real peer), EC P-256, CN = serial.
    const csr = execFileSync(
      'openssl',
      ['req', '-new', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'].concat(
        ['-subj', `/CN=${serial}`, '-keyout', '/dev/null'],
      ),
      { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] },
    );
    const body = await this.send<{ request_id: string; enrollment_token?: string }>(
      'POST',
      '/api/v1/enroll',
      {
        csr,
        serial,
        nonce,
        agent_version: '2.4.1',
        platform: 'windows',
        hostname: `host-${serial.toLowerCase()}`,
        ...(enrollmentToken ? { enrollment_token: enrollmentToken } : {}),
      },
    );
    return {
      serial,
      requestId: body.request_id,
      enrollmentToken: body.enrollment_token ?? enrollmentToken ?? '',
    };
  }

  /**
   * Activates a license signed with the test vendor key (global-setup.ts): `maxDevices`
   * devices, and `seats` per purpose when given.
   */
  async license(maxDevices: number, seats: Record<string, number> = {}): Promise<void> {
    const status = await this.send<{ deployment_instance_key: string }>(
      'GET',
      '/api/v1/license/status',
    );
    const licenseB64 = execFileSync(
      process.execPath,
      [
        LICENSE_TOOL,
        'sign',
        '--vendor-key',
        stackVar('CERT_VENDOR_KEY_FILE'),
        '--instance-key',
        status.deployment_instance_key,
        '--issued-to',
        'certificate-web e2e',
        '--max-devices',
        String(maxDevices),
        ...Object.entries(seats).flatMap(([purpose, n]) => ['--seat', `${purpose}=${n}`]),
      ],
      { encoding: 'utf8' },
    ).trim();
    await this.send('POST', '/api/v1/license/activate', { license_b64: licenseB64 });
  }
}

export const test = base.extend<{ api: Api; requestLog: void }>({
  api: async ({ request }, provide) => {
    await provide(await new Api(request).as(admin.email(), admin.password()));
  },
  // A failed test's report lists the browser's open and last requests (network.txt).
  requestLog: [
    async ({ context }, use, testInfo) => keepRequestsOnFailure(context, testInfo, () => use()),
    { auto: true },
  ],
});
