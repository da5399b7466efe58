import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildPlugin, componentCacheDir, examplePluginDir } from '@platform/plugin-sdk/build';
import type { ServiceProcess } from '@platform/testing';
import request from 'supertest';
import {
  BUILD_TIMEOUT_MS,
  RUNNER_TOKEN,
  startRunnerProcess,
} from '../catalog-plugins/support/catalog-plugin-lab';
import { loginAdmin, type Login } from '../support/sessions';
import { startTestApp, type TestApp } from '../support/test-app';

jest.setTimeout(2 * BUILD_TIMEOUT_MS);

/**
 * A component the runner refuses to load reaches the administrator with the runner's code and
 * words: a plugin built with WASI left on imports wasi:* interfaces; enabling it answers 422
 * plugin_artifact_invalid with details.reason unsupported_imports and the imports named in
 * `problem` (it used to be a bare `load_refused`, the imports only in the runner's log).
 */
describe('Enable - POST /api/v1/admin/installed-plugins/{id}/enable: a load refusal', () => {
  let t: TestApp;
  let admin: Login;
  let runner: ServiceProcess | undefined;
  let work: string;

  beforeAll(async () => {
    work = await mkdtemp(join(tmpdir(), 'load-refusal-'));
    const started = await startRunnerProcess();
    runner = started.runner;
    t = await startTestApp({
      PLUGIN_RUNNER_URL: `127.0.0.1:${started.grpcPort}`,
      PLUGIN_RUNNER_TOKEN: RUNNER_TOKEN,
    });
    admin = await loginAdmin(t);
  }, BUILD_TIMEOUT_MS);

  afterAll(async () => {
    await t?.close();
    await runner?.stop();
    await rm(work, { recursive: true, force: true });
  });

  it('names unsupported_imports and the imports, not load_refused', async () => {
    const built = await buildPlugin({
      sourceDir: examplePluginDir('zone-enricher'),
      outDir: join(work, 'dist'),
      cacheDir: componentCacheDir(process.env),
      timeoutMs: BUILD_TIMEOUT_MS,
      enableWasi: ['stdio'],
    });
    const installed = await request(t.url)
      .post('/api/v1/admin/installed-plugins/sideload')
      .set('Authorization', `Bearer ${admin.token}`)
      .attach('module', built.component, 'component.wasm')
      .attach('description', built.manifestBytes, 'manifest.json')
      .expect(201);
    const id = (installed.body as { data: { id: string } }).data.id;
    await request(t.url)
      .put(`/api/v1/admin/installed-plugins/${id}`)
      .set('Authorization', `Bearer ${admin.token}`)
      .send({ settings: { zones: [] } })
      .expect(200);

    const refused = await request(t.url)
      .post(`/api/v1/admin/installed-plugins/${id}/enable`)
      .set('Authorization', `Bearer ${admin.token}`)
      .expect(422);
    expect(refused.body).toMatchObject({
      code: 'plugin_artifact_invalid',
      details: { reason: 'unsupported_imports' },
    });
    expect((refused.body as { error: string }).error).toMatch(
      /unsupported_imports: the component imports .*wasi:/,
    );
    // Nothing was enabled.
    const after = await request(t.url)
      .get(`/api/v1/admin/installed-plugins/${id}`)
      .set('Authorization', `Bearer ${admin.token}`)
      .expect(200);
    expect((after.body as { data: { enabled: boolean } }).data.enabled).toBe(false);
  });
});
