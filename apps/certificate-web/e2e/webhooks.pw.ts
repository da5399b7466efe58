import { createHmac } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  admin,
  expect,
  expectAccessible,
  screenshot,
  signIn,
  test,
  unique,
  webUrl,
} from './support/fixtures';

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

/** A loopback HTTP receiver standing in for the third party: keeps what it is sent, answers 204. */
async function startReceiver(): Promise<{ server: Server; url: string; received: Received[] }> {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { server, url: `http://127.0.0.1:${port}/hooks/${unique('h').toLowerCase()}`, received };
}

/** A loopback port nothing listens on (bound, then released). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

test('a webhook endpoint on a loopback receiver: the secret shown once, an event delivered and signed, the delivery in its log', async ({
  page,
  api,
}) => {
  const receiver = await startReceiver();
  try {
    await signIn(page, admin.email(), admin.password());
    await page.getByRole('link', { name: 'Webhooks' }).click();
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    const dialog = page.getByRole('dialog');
    // The request-forgery guard: a metadata address is refused with its code.
    await dialog.getByRole('textbox', { name: 'URL' }).fill('http://169.254.169.254/latest');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(dialog.getByTestId('api-error')).toContainText('webhook_url_refused');
    await dialog.getByRole('textbox', { name: 'URL' }).fill(receiver.url);
    await dialog.getByRole('textbox', { name: 'Description' }).fill('SIEM');
    await dialog.getByRole('checkbox', { name: 'request.rejected' }).check();
    await expect(dialog).toHaveCSS('opacity', '1');
    await expectAccessible(page, 'webhook dialog');
    await dialog.getByRole('button', { name: 'Save' }).click();
    const secretBox = page.getByTestId('one-time-secret');
    await expect(secretBox).toContainText(receiver.url);
    const secret = ((await secretBox.getByTestId('secret-value').textContent()) ?? '').trim();
    expect(secret.length).toBeGreaterThanOrEqual(24);
    const listed = await api.send<{ items: { id: string; url: string }[] }>(
      'GET',
      '/api/v1/admin/webhooks',
    );
    expect(JSON.stringify(listed)).not.toContain(secret);
    await secretBox.getByRole('button', { name: 'I have stored it' }).click();
    await expect(secretBox).toHaveCount(0);

    // An event: an administrator rejects a request.
    const device = await api.enroll(unique('HOOK'));
    await api.send('POST', '/api/v1/requests/reject', {
      request_ids: [device.requestId],
      reason: 'webhook e2e',
    });
    const row = page.getByTestId('webhook-row').filter({ hasText: receiver.url });
    await expect(row).toContainText('request.rejected');
    await row.getByRole('button', { name: `Delivery log of ${receiver.url}` }).click();
    const log = page.getByRole('region', { name: `Deliveries to ${receiver.url}` });
    await expect(async () => {
      await log.getByRole('button', { name: 'Refresh' }).click();
      await expect(log.getByTestId('delivery-status').first()).toHaveText('delivered', {
        timeout: 1_000,
      });
    }).toPass({ timeout: 30_000 });
    const delivery = log.getByTestId('delivery-row').first();
    await expect(delivery).toContainText('request.rejected');
    await expect(delivery).toContainText('204');
    await expectAccessible(page, 'webhook deliveries');
    await screenshot(page, 'webhooks');

    // What the receiver got: the event, signed with the secret shown once.
    const got = receiver.received.find((r) => r.headers['x-certsvc-event'] === 'request.rejected');
    expect(got, JSON.stringify(receiver.received.map((r) => r.headers))).toBeDefined();
    const timestamp = String(got?.headers['x-certsvc-timestamp']);
    const expected = createHmac('sha256', secret).update(`${timestamp}.${got?.body}`).digest('hex');
    expect(got?.headers['x-certsvc-signature']).toBe(`v1=${expected}`);
    expect(got?.body).toContain(device.requestId);

    await row.getByRole('button', { name: `Delete the endpoint ${receiver.url}` }).click();
    await expect(row).toHaveCount(0);
  } finally {
    receiver.server.close();
  }
});

test('issuer profiles: an EST profile for an unreachable endpoint fails test-connection at the connection step', async ({
  page,
  api,
}) => {
  const port = await closedPort();
  const reset = () =>
    api.request.fetch(`${webUrl()}/api/v1/settings/issuers/vpn`, {
      method: 'PUT',
      headers: api.headers(),
      data: { kind: 'built_in' },
    });
  try {
    await signIn(page, admin.email(), admin.password());
    await page.getByRole('link', { name: 'Issuer profiles' }).click();
    const row = page.getByTestId('issuer-row').filter({ hasText: 'VPN' });
    await expect(row).toContainText('built-in CA');
    await expectAccessible(page, 'issuers');
    // built_in answers ok with its one step.
    await row.getByRole('button', { name: 'Test the connection of VPN' }).click();
    await expect(page.getByTestId('connection-test')).toContainText('every step passed');

    await row.getByRole('button', { name: 'Edit the issuer of VPN' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('combobox', { name: 'Issuer' }).click();
    await page.getByRole('option', { name: 'EST' }).click();
    await dialog.getByRole('textbox', { name: 'URL' }).fill(`http://127.0.0.1:${port}`);
    await dialog.getByRole('textbox', { name: 'User name' }).fill('est-client');
    await dialog.getByRole('textbox', { name: 'Password' }).fill('est-password-1');
    await dialog.getByRole('button', { name: 'Save' }).click();
    // EST is https only: the service's refusal with its code.
    await expect(dialog.getByTestId('api-error')).toContainText('issuer_url_invalid');
    await dialog.getByRole('textbox', { name: 'URL' }).fill(`https://127.0.0.1:${port}`);
    await expect(dialog).toHaveCSS('opacity', '1');
    await expectAccessible(page, 'issuer dialog');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(dialog).toHaveCount(0);
    await expect(row).toContainText('EST');
    await expect(row).toContainText('password');

    await row.getByRole('button', { name: 'Test the connection of VPN' }).click();
    const result = page.getByTestId('connection-test');
    await expect(result).toContainText('failed at the step "connection"');
    await expect(result.getByTestId('connection-step').last()).toContainText('✗ connection');
    await expectAccessible(page, 'issuer test failed');
    await screenshot(page, 'issuers-test-failed');
    const answer = await api.send<{ ok: boolean; failed_step: string }>(
      'POST',
      '/api/v1/settings/issuers/vpn/test-connection',
    );
    expect(answer).toMatchObject({ ok: false, failed_step: 'connect' });
  } finally {
    await reset();
  }
});
