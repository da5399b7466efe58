import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  approve,
  FAST_ENV,
  pendingRequestOf,
  startAgentServer,
  uniqueSerial,
  type AgentServer,
} from './support/agent-harness';
import { emptyPathDir, packagedAgent, runFile } from './support/packaged-agent';
import { parseUnit } from './support/systemd-unit';

const ROOT = join(__dirname, '../../..');
const VERSION = (
  JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }
).version;
const UNIT = './usr/lib/systemd/system/platform-device-agent.service';
const STATE = '/var/lib/platform-device-agent';

const dpkgDeb = (...args: string[]): string => execFileSync('dpkg-deb', args, { encoding: 'utf8' });
const available = (tool: string): boolean =>
  spawnSync('/bin/sh', ['-c', `command -v ${tool}`], { stdio: 'ignore' }).status === 0;
/** A private mount namespace (root, CAP_SYS_ADMIN): the maintainer scripts can run for real. */
const canUnshare = (): boolean =>
  spawnSync('unshare', ['--mount', '--propagation', 'private', 'true'], { stdio: 'ignore' })
    .status === 0;

/** `dpkg-deb --contents` lines as path -> `mode owner`. */
function contents(deb: string): Record<string, string> {
  const entries: Record<string, string> = {};
  for (const line of dpkgDeb('--contents', deb).trim().split('\n')) {
    const [perms, owner, , , , path] = line.split(/\s+/);
    entries[path!] = `${perms} ${owner}`;
  }
  return entries;
}

describe('device agent: the platform-device-agent .deb', () => {
  let deb: string;
  let work: string;
  let noPath: { path: string; remove(): void };
  beforeAll(async () => {
    deb = (await packagedAgent()).deb;
    work = mkdtempSync(join(tmpdir(), 'agent-deb-'));
    chmodSync(work, 0o755); // the package's system user runs the extracted executable below
    dpkgDeb('-x', deb, join(work, 'root'));
    dpkgDeb('-e', deb, join(work, 'control'));
    noPath = emptyPathDir();
  }, 240_000);
  afterAll(() => {
    rmSync(work, { recursive: true, force: true });
    noPath?.remove();
  });

  it('holds the executable, the unit and the conffile with their modes, and maintainer scripts', async () => {
    const info = dpkgDeb('--info', deb);
    expect(info).toContain(' Package: platform-device-agent\n');
    expect(info).toContain(` Version: ${VERSION}\n`);
    expect(info).toContain(` Architecture: ${process.arch === 'x64' ? 'amd64' : 'arm64'}\n`);
    expect(info).toMatch(/ Depends: libc6 \(>= 2\.28\), libstdc\+\+6, libgcc-s1, passwd\n/);
    expect(contents(deb)).toEqual({
      './': 'drwxr-xr-x root/root',
      './etc/': 'drwxr-xr-x root/root',
      './etc/default/': 'drwxr-xr-x root/root',
      './etc/default/platform-device-agent': '-rw-r--r-- root/root',
      './usr/': 'drwxr-xr-x root/root',
      './usr/bin/': 'drwxr-xr-x root/root',
      './usr/bin/certsvc-agent': '-rwxr-xr-x root/root',
      './usr/lib/': 'drwxr-xr-x root/root',
      './usr/lib/systemd/': 'drwxr-xr-x root/root',
      './usr/lib/systemd/system/': 'drwxr-xr-x root/root',
      [UNIT]: '-rw-r--r-- root/root',
      './usr/share/': 'drwxr-xr-x root/root',
      './usr/share/doc/': 'drwxr-xr-x root/root',
      './usr/share/doc/platform-device-agent/': 'drwxr-xr-x root/root',
      './usr/share/doc/platform-device-agent/README.Debian': '-rw-r--r-- root/root',
    });
    const control = join(work, 'control');
    expect(readFileSync(join(control, 'conffiles'), 'utf8')).toBe(
      '/etc/default/platform-device-agent\n',
    );
    for (const script of ['postinst', 'prerm', 'postrm']) {
      expect(statSync(join(control, script)).mode & 0o777).toBe(0o755);
      execFileSync('/bin/sh', ['-n', join(control, script)]); // parses
    }
    // the extracted executable runs, without node on PATH
    expect(
      await runFile(join(work, 'root/usr/bin/certsvc-agent'), ['--version'], {
        cwd: work,
        env: { PATH: noPath.path },
      }),
    ).toMatchObject({ code: 0, stdout: expect.stringContaining(`certsvc-agent ${VERSION} `) });
  });

  it('has a hardened unit that runs `certsvc-agent run` as the system user', () => {
    const text = readFileSync(join(work, 'root', UNIT), 'utf8');
    const unit = parseUnit(text);
    const service = unit.Service!;
    expect(service.User).toEqual(['platform-device-agent']);
    expect(service.ExecStart).toEqual([
      `/usr/bin/certsvc-agent run --state-dir ${STATE} $CERTSVC_RUN_OPTIONS`,
    ]);
    expect(service.ExecStartPre?.[0]).toMatch(/^\/usr\/bin\/certsvc-agent enroll --server /);
    expect(service.EnvironmentFile).toEqual(['/etc/default/platform-device-agent']);
    expect(service).toMatchObject({
      ProtectSystem: ['strict'],
      ReadWritePaths: [`${STATE} /var/log/platform-device-agent`],
      StateDirectoryMode: ['0700'],
      NoNewPrivileges: ['yes'],
      PrivateTmp: ['yes'],
      ProtectHome: ['yes'],
      Restart: ['on-failure'],
      CapabilityBoundingSet: [''],
    });
    expect(unit.Install).toEqual({ WantedBy: ['multi-user.target'] });
    expect(() => parseUnit(text.replace('ProtectSystem=', 'ProtectSytem='))).toThrow(
      'unknown key ProtectSytem in [Service]',
    );

    if (!available('systemd-analyze')) return; // the parse check above stands alone
    // systemd's own check; the one change: the executable's path, at its extracted place
    const copy = join(work, 'platform-device-agent.service');
    writeFileSync(
      copy,
      text.replaceAll('/usr/bin/certsvc-agent', join(work, 'root/usr/bin/certsvc-agent')),
    );
    const verify = spawnSync('systemd-analyze', ['verify', copy], { encoding: 'utf8' });
    expect({ status: verify.status, stderr: verify.stderr }).toEqual({ status: 0, stderr: '' });
    const security = spawnSync('systemd-analyze', ['security', '--offline=yes', copy], {
      encoding: 'utf8',
    });
    const exposure = /Overall exposure level for .*: (\d+\.\d+)/.exec(security.stdout);
    expect(Number(exposure?.[1])).toBeLessThanOrEqual(2.5);
  });

  it('its maintainer scripts create the user and a 0700 state directory the agent enrolls in', async () => {
    if (!canUnshare()) return; // needs root and a mount namespace; the checks above still ran
    const server: AgentServer = await startAgentServer();
    try {
      const serial = uniqueSerial();
      const exe = join(work, 'root/usr/bin/certsvc-agent');
      const env = Object.entries({ PATH: noPath.path, ...FAST_ENV })
        .map(([k, v]) => `${k}=${v}`)
        .join(' ');
      // A private copy of /etc and empty /var/lib, /var/log, seen by this shell only: useradd,
      // install and the purge act on them, never on the machine's.
      const script = `set -e
cp -a /etc "$W/etc"; mount --bind "$W/etc" /etc
mount -t tmpfs tmpfs /var/lib; mount -t tmpfs tmpfs /var/log
getent group tss >/dev/null || groupadd --system tss
sh "$W/control/postinst" configure
getent passwd platform-device-agent | cut -d: -f1,6,7
id -nG platform-device-agent
stat -c '%n %U:%G %a' ${STATE} /var/log/platform-device-agent
setpriv --reuid=platform-device-agent --regid=platform-device-agent --clear-groups \\
  env -i ${env} "${exe}" enroll --server ${server.url} --serial ${serial} --state-dir ${STATE} >/dev/null
stat -c '%n %U:%G %a' ${STATE}/key.pem
sh "$W/control/postinst" configure 0.1.0
stat -c 'upgraded: %n %a' ${STATE} ${STATE}/certificate.pem
sh "$W/control/postrm" remove; test -e ${STATE}/key.pem && echo 'remove kept the state'
sh "$W/control/postrm" purge; test ! -e ${STATE} && echo 'purge removed the state'
`;
      const running = runFile(
        'unshare',
        ['--mount', '--propagation', 'private', '/bin/sh', '-c', script],
        {
          cwd: work,
          env: { PATH: process.env.PATH ?? '/usr/sbin:/usr/bin:/sbin:/bin', W: work },
        },
      );
      await approve(server, await pendingRequestOf(server, serial));
      const ran = await running;
      expect(ran.stderr).toBe('');
      expect(ran.stdout.split('\n')).toEqual([
        // the first install's hint
        'platform-device-agent: set CERTSVC_SERVER and CERTSVC_SERIAL in /etc/default/platform-device-agent,',
        'then: systemctl enable --now platform-device-agent',
        'platform-device-agent:/var/lib/platform-device-agent:/usr/sbin/nologin',
        'platform-device-agent tss', // for /dev/tpmrm0 (--tpm)
        `${STATE} platform-device-agent:platform-device-agent 700`,
        '/var/log/platform-device-agent platform-device-agent:platform-device-agent 700',
        `${STATE}/key.pem platform-device-agent:platform-device-agent 600`,
        `upgraded: ${STATE} 700`,
        `upgraded: ${STATE}/certificate.pem 600`,
        'remove kept the state',
        'purge removed the state',
        '',
      ]);
      expect(ran.code).toBe(0);
    } finally {
      await server.close();
    }
  });
});
