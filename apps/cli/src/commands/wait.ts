import type { Client } from 'openapi-fetch';
import type { components, paths } from '../api/findings.gen';
import type { Context } from '../command';
import { CliError, EXIT } from '../errors';
import { must } from '../http/clients';

export type Report = components['schemas']['ReportDto'];

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Polls the report until it is no longer pending: 250 ms, then 1.5 times longer each time up
 * to 5 s. A progress line on stderr only when stderr is a terminal.
 */
export async function waitForReport(
  ctx: Context,
  api: Client<paths>,
  reportId: string,
  timeoutSeconds: number,
): Promise<Report> {
  const started = Date.now();
  const tty = ctx.io.stderr.isTTY === true && !ctx.json;
  let delay = 250;
  try {
    for (;;) {
      const report = must(
        await api.GET('/api/v1/reports/{report_id}', {
          params: { path: { report_id: reportId } },
        }),
      ).data;
      const seconds = Math.round((Date.now() - started) / 1000);
      if (report.status !== 'pending') return report;
      if (tty)
        ctx.io.stderr.write(`\rwaiting for report ${reportId}: ${report.status} (${seconds} s)`);
      if (Date.now() - started + delay > timeoutSeconds * 1000) {
        throw new CliError(
          EXIT.timeout,
          `report ${reportId} still ${report.status} after ${seconds} s (--timeout ${timeoutSeconds})`,
          'wait_timeout',
        );
      }
      await sleep(delay);
      delay = Math.min(5000, Math.round(delay * 1.5));
    }
  } finally {
    if (tty) ctx.io.stderr.write('\r\x1b[K');
  }
}
