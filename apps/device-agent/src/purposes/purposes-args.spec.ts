import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseCommandLine } from '../cli/args';
import { main } from '../main';

describe('purposes command line', () => {
  it('parses list and request <purpose> with their options', () => {
    expect(parseCommandLine(['purposes', 'list'])).toMatchObject({
      command: 'purposes',
      operands: ['list'],
    });
    expect(
      parseCommandLine(['purposes', 'request', 'ad_logon', '--user', 'bob', '--upn', 'b@corp']),
    ).toMatchObject({
      command: 'purposes',
      operands: ['request', 'ad_logon'],
      values: { user: 'bob', upn: 'b@corp' },
    });
  });

  it.each([
    [['purposes'], 'purposes needs `list` or `request <purpose>`'],
    [['purposes', 'show'], 'purposes needs `list` or `request <purpose>`'],
    [['purposes', 'request'], 'purposes request needs a purpose'],
    [['purposes', 'list', 'wifi'], 'unexpected argument "wifi"'],
    [['purposes', 'request', 'wifi', 'vpn'], 'unexpected argument "vpn"'],
  ])('%j is exit 2 (%s) and touches no state directory', async (argv, message) => {
    const root = mkdtempSync(join(tmpdir(), 'agent-args-'));
    try {
      let stderr = '';
      const code = await main([...argv, '--state-dir', join(root, 'state')], {
        stdout: () => undefined,
        stderr: (text) => {
          stderr += text;
        },
        env: {},
      });
      expect([code, stderr.split('\n')[0]]).toEqual([2, `certsvc-agent: ${message}`]);
      expect(existsSync(join(root, 'state'))).toBe(false);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('refuses bad requests before reading the state: unknown purpose, missing --user or --upn', async () => {
    const cases: [string[], string][] = [
      [['request', 'mail'], 'unknown purpose "mail" (wifi, user_mtls, ad_logon, ssh, k8s, vpn)'],
      [['request', 'ad_logon', '--user', 'bob'], '--upn is required for ad_logon'],
      [['request', 'vpn', '--user', 'bob'], '--user and --upn are for user_mtls and ad_logon only'],
      [['request', 'wifi', '--public-key', 'k.pub'], '--public-key goes with the ssh purpose only'],
    ];
    const root = mkdtempSync(join(tmpdir(), 'agent-args-'));
    try {
      for (const [argv, message] of cases) {
        let stderr = '';
        const code = await main(['purposes', ...argv, '--state-dir', join(root, 'state')], {
          stdout: () => undefined,
          stderr: (text) => {
            stderr += text;
          },
          env: {},
        });
        expect([code, stderr.split('\n')[0]]).toEqual([2, `certsvc-agent: ${message}`]);
        expect(existsSync(join(root, 'state'))).toBe(false);
      }
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
