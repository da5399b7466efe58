import { expect, test as base, type APIRequestContext, type Page } from '@playwright/test';
import {
  expectAccessible,
  keepRequestsOnFailure,
  saveScreenshot,
  stackVar,
} from '@platform/web-ui/e2e';
import { join } from 'node:path';
import { Client } from 'pg';

export { expectAccessible, stackVar };

/** This run's screenshots (playwright.config.ts chooses the run's output directory). */
export const SCREENSHOT_DIR = join(
  process.env.FINDINGS_WEB_TEST_OUTPUT ?? join(__dirname, '../../test-output'),
  'screenshots',
);

export function webUrl(): string {
  return stackVar('FINDINGS_WEB_URL');
}

export const admin = {
  email: () => stackVar('FINDINGS_ADMIN_EMAIL'),
  password: () => stackVar('FINDINGS_ADMIN_PASSWORD'),
};

export async function screenshot(page: Page, name: string): Promise<void> {
  await saveScreenshot(page, SCREENSHOT_DIR, name);
}

export async function signIn(page: Page): Promise<void> {
  await page.goto(`${webUrl()}/login`);
  await page.getByLabel('Login (e-mail)').fill(admin.email());
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(admin.password());
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByTestId('current-user')).toHaveText(admin.email());
}

/** The API as the admin, through the UI's own proxy (seeding and checks). */
export class Api {
  private token = '';
  constructor(readonly request: APIRequestContext) {}

  async login(): Promise<void> {
    const res = await this.request.post(`${webUrl()}/api/v1/auth/local/login`, {
      data: { login: admin.email(), password: admin.password() },
    });
    expect(res.status()).toBe(200);
    this.token = ((await res.json()) as { data: { access_token: string } }).data.access_token;
  }

  authHeaders() {
    return { Authorization: `Bearer ${this.token}` };
  }

  async get<T>(path: string): Promise<T> {
    const res = await this.request.get(`${webUrl()}${path}`, { headers: this.authHeaders() });
    expect(res.ok(), `${path}: ${res.status()} ${await res.text()}`).toBe(true);
    return ((await res.json()) as { data: T }).data;
  }

  async post<T>(path: string, data: unknown): Promise<T> {
    const res = await this.request.post(`${webUrl()}${path}`, {
      headers: this.authHeaders(),
      data,
    });
    expect(res.ok(), `${path}: ${res.status()} ${await res.text()}`).toBe(true);
    return ((await res.json()) as { data: T }).data;
  }

  async patch<T>(path: string, data: unknown): Promise<T> {
    const res = await this.request.patch(`${webUrl()}${path}`, {
      headers: this.authHeaders(),
      data,
    });
    expect(res.ok(), `${path}: ${res.status()} ${await res.text()}`).toBe(true);
    return ((await res.json()) as { data: T }).data;
  }

  async project(name: string, description?: string): Promise<{ id: string; name: string }> {
    return this.post('/api/v1/projects', { name, ...(description ? { description } : {}) });
  }

  /** A local user (no password: never signs in here) with a display name. */
  async user(email: string, displayName: string): Promise<{ id: string; email: string }> {
    return this.post('/api/v1/admin/users', { email, display_name: displayName });
  }

  async product(
    projectId: string,
    name: string,
    repositoryUrl?: string,
  ): Promise<{ id: string; name: string }> {
    return this.post(`/api/v1/projects/${projectId}/products`, {
      name,
      ...(repositoryUrl ? { repository_url: repositoryUrl } : {}),
    });
  }

  /** A SARIF report uploaded through the API and ingested by the worker: the report at the end. */
  async ingest(
    productId: string,
    sarif: string,
    fileName = 'scan.sarif',
  ): Promise<{ id: string; status: string; counts: Record<string, number> }> {
    const res = await this.request.post(`${webUrl()}/api/v1/products/${productId}/reports`, {
      headers: this.authHeaders(),
      multipart: {
        file: { name: fileName, mimeType: 'application/json', buffer: Buffer.from(sarif) },
      },
    });
    expect(res.status(), await res.text()).toBe(202);
    const { report_id } = ((await res.json()) as { data: { report_id: string } }).data;
    await expect
      .poll(
        async () => (await this.get<{ status: string }>(`/api/v1/reports/${report_id}`)).status,
        {
          timeout: 60_000,
        },
      )
      .toBe('completed');
    return this.get(`/api/v1/reports/${report_id}`);
  }
}

/** A SARIF 2.1.0 report of `results` (rule, level, file, line), one run of `tool`. */
export function sarif(
  tool: string,
  results: {
    rule: string;
    level: 'error' | 'warning' | 'note';
    file: string;
    line: number;
    text: string;
    /** SARIF `partialFingerprints.primaryLocationLineHash` */
    lineHash?: string;
  }[],
): string {
  return JSON.stringify({
    version: '2.1.0',
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    runs: [
      {
        tool: {
          driver: {
            name: tool,
            version: '1.0.0',
            rules: [...new Set(results.map((r) => r.rule))].map((id) => ({
              id,
              shortDescription: { text: `Rule ${id}` },
            })),
          },
        },
        results: results.map((r) => ({
          ruleId: r.rule,
          level: r.level,
          message: { text: r.text },
          ...(r.lineHash ? { partialFingerprints: { primaryLocationLineHash: r.lineHash } } : {}),
          locations: [
            {
              physicalLocation: {
                artifactLocation: { uri: r.file },
                region: { startLine: r.line, snippet: { text: `vulnerable(${r.line});` } },
              },
            },
          ],
        })),
      },
    ],
  });
}

/** A statement on the test database (seeding what the API cannot make in a browser test). */
export async function sql<T>(text: string, values: unknown[] = []): Promise<T[]> {
  const url = stackVar('FINDINGS_DATABASE_URL');
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(text, values)).rows as T[];
  } finally {
    await client.end();
  }
}

/**
 * Holds back every write of findings into a product until `release()`: the product row is
 * locked FOR UPDATE (as a product deletion does), and each ingestion batch first takes it FOR
 * KEY SHARE (lockProductForWrite), so a running ingestion waits before its next batch while
 * its job stays active. Reads, and changes to the report row, are not held.
 */
export async function holdProductWrites(productId: string): Promise<{ release(): Promise<void> }> {
  const url = stackVar('FINDINGS_DATABASE_URL');
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('BEGIN');
    await client.query('SELECT 1 FROM products WHERE id = $1 FOR UPDATE', [productId]);
  } catch (error) {
    await client.end();
    throw error;
  }
  let released = false;
  return {
    async release() {
      if (released) return;
      released = true;
      try {
        await client.query('ROLLBACK');
      } finally {
        await client.end();
      }
    },
  };
}

/** A unique name for this run (the tests share one database). */
export function unique(prefix: string): string {
  return `${prefix}-${Date.now().toString(36)}${Math.floor(Math.random() * 1e4)}`;
}

/** A project, a product and three findings (HIGH, MEDIUM, LOW) ingested from a SARIF report. */
export async function seedFindings(api: Api, tool = 'semgrep') {
  const project = await api.project(unique('proj'));
  const product = await api.product(project.id, unique('prod'));
  await api.ingest(
    product.id,
    sarif(tool, [
      {
        rule: 'sql-injection',
        level: 'error',
        file: 'src/db.ts',
        line: 10,
        text: 'SQL injection in query',
        lineHash: '5f2b1c9e0a7d4e31:1',
      },
      {
        rule: 'weak-hash',
        level: 'warning',
        file: 'src/crypto.ts',
        line: 20,
        text: 'Weak hash MD5',
      },
      {
        rule: 'todo-comment',
        level: 'note',
        file: 'src/app.ts',
        line: 30,
        text: 'TODO left in code',
      },
    ]),
  );
  return { project, product };
}

export const test = base.extend<{ api: Api; requestLog: void }>({
  api: async ({ request }, provide) => {
    const api = new Api(request);
    await api.login();
    await provide(api);
  },
  // A failed test's report lists the browser's open and last requests (network.txt).
  requestLog: [
    async ({ context }, use, testInfo) => keepRequestsOnFailure(context, testInfo, () => use()),
    { auto: true },
  ],
});
export { expect };
