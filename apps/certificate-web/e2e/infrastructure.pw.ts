import { execFileSync } from 'node:child_process';
import {
  admin,
  expect,
  expectAccessible,
  screenshot,
  signIn,
  test,
  unique,
} from './support/fixtures';

/** A self-signed CA certificate made by openssl (a real peer): the API server's CA bundle. */
function caPem(): string {
  return execFileSync(
    'openssl',
    ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'].concat([
      '-subj',
      '/CN=k8s e2e CA',
      '-days',
      '2',
      '-keyout',
      '/dev/null',
    ]),
    { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] },
  );
}

test('an administrator adds, changes, disables and deletes a network, and registers, edits and deletes a Kubernetes cluster', async ({
  page,
  api,
}) => {
  await signIn(page, admin.email(), admin.password());

  // Networks: a Wi-Fi network with a RADIUS name, then changed, disabled and deleted.
  await page.getByRole('link', { name: 'Networks' }).click();
  const name = unique('corp-wifi');
  await page.getByRole('button', { name: 'Add network' }).click();
  let dialog = page.getByRole('dialog');
  await dialog.getByRole('textbox', { name: 'Name', exact: true }).fill(name);
  await dialog.getByRole('textbox', { name: 'SSID' }).fill('x'.repeat(33));
  await dialog.getByRole('textbox', { name: 'RADIUS server names' }).fill('radius1.corp.example');
  await expect(dialog).toHaveCSS('opacity', '1');
  await expectAccessible(page, 'network dialog');
  await dialog.getByRole('button', { name: 'Save' }).click();
  // 33 bytes: the service's refusal, with its code.
  await expect(dialog.getByTestId('api-error')).toContainText('network_ssid_invalid');
  await dialog.getByRole('textbox', { name: 'SSID' }).fill('CorpNet');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toHaveCount(0);
  const row = page.getByTestId('network-row').filter({ hasText: name });
  await expect(row).toContainText('CorpNet');
  await expect(row).toContainText('radius1.corp.example');
  await row.getByRole('button', { name: `Edit the network ${name}` }).click();
  dialog = page.getByRole('dialog');
  await dialog.getByRole('textbox', { name: 'RADIUS server names' }).fill('');
  await dialog.getByRole('checkbox', { name: 'macOS agents skip this profile' }).check();
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(row).toContainText('not checked');
  const stored = (
    await api.send<{
      items: {
        name: string;
        radius_server_names: string[];
        macos_agent_profile_disabled: boolean;
      }[];
    }>('GET', '/api/v1/admin/networks')
  ).items.find((n) => n.name === name);
  expect(stored?.radius_server_names).toEqual([]);
  expect(stored?.macos_agent_profile_disabled).toBe(true);
  await row.getByRole('button', { name: 'Disable' }).click();
  await expect(row.getByTestId('network-state')).toHaveText('disabled');
  await expectAccessible(page, 'networks');
  await screenshot(page, 'networks');
  await row.getByRole('button', { name: `Delete the network ${name}` }).click();
  await expect(row).toHaveCount(0);

  // Kubernetes: a cluster with a group mapping; a bad line is caught before sending.
  await page.getByRole('link', { name: 'Kubernetes' }).click();
  const cluster = unique('prod').toLowerCase();
  await page.getByRole('button', { name: 'Register cluster' }).click();
  dialog = page.getByRole('dialog');
  await dialog.getByRole('textbox', { name: 'Name', exact: true }).fill(cluster);
  await dialog.getByRole('textbox', { name: 'API server URL' }).fill('http://k8s.example.com');
  await dialog.getByRole('textbox', { name: 'API server CA (PEM)' }).fill(caPem());
  await dialog
    .getByRole('textbox', { name: 'Group mappings' })
    .fill('role:cert-admin = admins\nnonsense');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog.getByRole('alert')).toContainText('Not a group mapping: "nonsense"');
  await dialog.getByRole('textbox', { name: 'Group mappings' }).fill('role:cert-admin = admins');
  await dialog.getByRole('button', { name: 'Save' }).click();
  // http: the service's refusal, shown with its code.
  await expect(dialog.getByTestId('api-error')).toContainText('k8s_server_url_invalid');
  await dialog
    .getByRole('textbox', { name: 'API server URL' })
    .fill('https://k8s.example.com:6443');
  await expect(dialog).toHaveCSS('opacity', '1');
  await expectAccessible(page, 'cluster dialog');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toHaveCount(0);
  const clusterRow = page.getByTestId('cluster-row').filter({ hasText: cluster });
  await expect(clusterRow).toContainText('role:cert-admin = admins');
  await clusterRow.getByRole('button', { name: `Edit the cluster ${cluster}` }).click();
  dialog = page.getByRole('dialog');
  await dialog.getByRole('textbox', { name: 'Group mappings' }).fill('any = viewers');
  await dialog.getByRole('checkbox', { name: 'enabled' }).uncheck();
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(clusterRow).toContainText('any = viewers');
  await expect(clusterRow).toContainText('disabled');
  const clusters = await api.send<{
    items: { name: string; enabled: boolean; groups: unknown[] }[];
  }>('GET', '/api/v1/admin/k8s-clusters');
  expect(clusters.items.find((c) => c.name === cluster)).toMatchObject({
    enabled: false,
    groups: [{ source: 'any', value: '', group: 'viewers' }],
  });
  await expectAccessible(page, 'kubernetes');
  await screenshot(page, 'kubernetes');
  await clusterRow.getByRole('button', { name: `Delete the cluster ${cluster}` }).click();
  await expect(clusterRow).toHaveCount(0);
});
