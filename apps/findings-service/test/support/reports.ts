import request from 'supertest';
import { waitFor, WaitAborted } from '@platform/testing';
import type { Auth } from './catalog';
import type { TestApp } from './test-app';

export interface ReportView {
  id: string;
  status: 'pending' | 'completed' | 'failed';
  format: string | null;
  scanner: string | null;
  counts: { new: number; updated: number; renewed: number; results: number };
  failure_code: string | null;
  failure_reason: string | null;
}

export async function uploadReport(
  t: TestApp,
  auth: Auth,
  productId: string,
  content: Buffer | string,
  options: { filename?: string; fields?: Record<string, string> } = {},
): Promise<string> {
  let req = auth.apply(request(t.url).post(`/api/v1/products/${productId}/reports`));
  for (const [k, v] of Object.entries(options.fields ?? {})) req = req.field(k, v);
  const res = await req
    .attach('file', Buffer.from(content), options.filename ?? 'report.sarif')
    .expect(202);
  return (res.body as { data: { report_id: string } }).data.report_id;
}

export async function waitForReport(
  t: TestApp,
  auth: Auth,
  reportId: string,
  timeoutMs = 30_000,
): Promise<ReportView> {
  return waitFor(
    async () => {
      const res = await auth.apply(request(t.url).get(`/api/v1/reports/${reportId}`));
      if (res.status !== 200) throw new WaitAborted(`GET report ${res.status}: ${res.text}`);
      const report = (res.body as { data: ReportView }).data;
      if (report.status === 'pending') throw new Error(`still pending: ${JSON.stringify(report)}`);
      return report;
    },
    { timeoutMs, intervalMs: 100, what: `report ${reportId} finished` },
  );
}
