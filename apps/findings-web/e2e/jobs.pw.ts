import {
  expect,
  expectAccessible,
  holdProductWrites,
  sarif,
  screenshot,
  signIn,
  test,
  unique,
  webUrl,
  type Api,
} from './support/fixtures';

/** A SARIF report of `count` distinct results (one rule per 50, a file per 37). */
function bigSarif(count: number): string {
  return sarif(
    'JobsScanner',
    Array.from({ length: count }, (_, i) => ({
      rule: `JOB${String(i % 50).padStart(3, '0')}`,
      level: (['error', 'warning', 'note'] as const)[i % 3] ?? 'note',
      file: `src/module${i % 200}/file${i % 37}.c`,
      line: i + 1,
      text: `Problem number ${i}`,
    })),
  );
}

async function upload(api: Api, productId: string, report: string): Promise<string> {
  const res = await api.request.post(`${webUrl()}/api/v1/products/${productId}/reports`, {
    headers: api.authHeaders(),
    multipart: {
      file: { name: 'scan.sarif', mimeType: 'application/json', buffer: Buffer.from(report) },
    },
  });
  expect(res.status(), await res.text()).toBe(202);
  return ((await res.json()) as { data: { report_id: string } }).data.report_id;
}

const jobState = (api: Api, id: string) =>
  api.get<{ state: string }>(`/api/v1/jobs/${id}`).then((j) => j.state);
const report = (api: Api, id: string) =>
  api.get<{ status: string; failure_code: string | null; counts: { results: number } }>(
    `/api/v1/reports/${id}`,
  );

test('jobs page: cancel a queued job and a running one, retry the stopped one to completion', async ({
  page,
  api,
}) => {
  test.setTimeout(240_000);
  const project = await api.project(unique('jobs'));
  const product = await api.product(project.id, unique('prod'));
  const other = await api.product(project.id, unique('prod'));
  await signIn(page);
  await page.getByRole('link', { name: 'Jobs' }).click();
  // The worker ingests one report at a time: a large one runs while a small one waits. The
  // large one is held before its next batch (a lock on its product row, taken right after
  // the upload: its ten batches cannot all be written in between), so it is still running
  // when Cancel is clicked, however fast the machine.
  const total = 20_000;
  const running = await upload(api, product.id, bigSarif(total));
  const hold = await holdProductWrites(product.id);
  try {
    await expect
      .poll(() => jobState(api, running), { timeout: 60_000, intervals: [50] })
      .toBe('active');
    const queued = await upload(api, other.id, bigSarif(3));
    expect(await jobState(api, queued)).toBe('waiting');

    await page.reload();
    const queuedRow = page.getByTestId(`job-${queued}`);
    const runningRow = page.getByTestId(`job-${running}`);
    await expect(queuedRow.getByTestId('job-state')).toHaveText('waiting');
    await expect(runningRow.getByTestId('job-state')).toHaveText('active');
    await queuedRow.getByRole('button', { name: 'Cancel' }).click();
    // A queued job is removed; its report fails as cancelled.
    await expect(queuedRow).toHaveCount(0);
    await expect.poll(async () => (await report(api, queued)).failure_code).toBe('cancelled');
    const cancelled = page.waitForResponse(
      (r) => r.url().endsWith(`/api/v1/jobs/${running}/cancel`) && r.ok(),
    );
    await runningRow.getByRole('button', { name: 'Cancel' }).click();
    await cancelled;
    // Still running (held): the cancellation is only a request until the next batch.
    expect(await jobState(api, running)).toBe('active');
  } finally {
    await hold.release();
  }
  // A running job stops before its next write: failed, the report cancelled with part written.
  const runningRow = page.getByTestId(`job-${running}`);
  await expect(runningRow.getByTestId('job-state')).toHaveText('failed', { timeout: 60_000 });
  const stopped = await report(api, running);
  expect(stopped).toMatchObject({ status: 'failed', failure_code: 'cancelled' });
  expect(stopped.counts.results).toBeLessThan(total);
  await expectAccessible(page, 'jobs');
  await screenshot(page, 'jobs-cancelled');

  await runningRow.getByRole('button', { name: 'Retry' }).click();
  await expect(runningRow.getByTestId('job-state')).toHaveText('completed', { timeout: 120_000 });
  expect(await report(api, running)).toMatchObject({
    status: 'completed',
    counts: { results: total },
  });
  await expect(runningRow.getByRole('button', { name: 'Retry' })).toHaveCount(0);
  await screenshot(page, 'jobs-retried');
});
