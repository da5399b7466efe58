/**
 * A strict reader of the package's systemd unit, for machines without `systemd-analyze`:
 * sections and `Key=value` lines as systemd reads them (comments `#`/`;`, no continuation
 * lines in this unit), and every key checked against the directives systemd 252 knows for its
 * section — a misspelt directive (which systemd only warns about and ignores, dropping the
 * hardening it was meant to add) is an error here.
 */
const KNOWN: Record<string, readonly string[]> = {
  Unit: ['Description', 'Documentation', 'Wants', 'After', 'Requires', 'StartLimitIntervalSec'],
  Service: [
    'Type',
    'User',
    'Group',
    'EnvironmentFile',
    'ExecStartPre',
    'ExecStart',
    'TimeoutStartSec',
    'Restart',
    'RestartSec',
    'RestartPreventExitStatus',
    'KillSignal',
    'TimeoutStopSec',
    'StateDirectory',
    'StateDirectoryMode',
    'LogsDirectory',
    'LogsDirectoryMode',
    'UMask',
    'ProtectSystem',
    'ReadWritePaths',
    'ProtectHome',
    'PrivateTmp',
    'NoNewPrivileges',
    'CapabilityBoundingSet',
    'AmbientCapabilities',
    'RestrictSUIDSGID',
    'ProtectKernelTunables',
    'ProtectKernelModules',
    'ProtectKernelLogs',
    'ProtectControlGroups',
    'ProtectClock',
    'ProtectHostname',
    'ProtectProc',
    'RestrictNamespaces',
    'RestrictRealtime',
    'LockPersonality',
    'RestrictAddressFamilies',
    'SystemCallArchitectures',
    'SystemCallFilter',
    'SystemCallErrorNumber',
  ],
  Install: ['WantedBy'],
};

export type UnitFile = Record<string, Record<string, string[]>>;

export function parseUnit(text: string): UnitFile {
  const unit: UnitFile = {};
  let section: string | undefined;
  text.split('\n').forEach((raw, index) => {
    const line = raw.trim();
    const where = `line ${index + 1}`;
    if (line === '' || line.startsWith('#') || line.startsWith(';')) return;
    if (line.endsWith('\\')) throw new Error(`${where}: continuation lines are not expected`);
    const header = /^\[([A-Za-z]+)\]$/.exec(line);
    if (header) {
      section = header[1];
      if (!KNOWN[section]) throw new Error(`${where}: unknown section [${section}]`);
      if (unit[section]) throw new Error(`${where}: section [${section}] twice`);
      unit[section] = {};
      return;
    }
    const pair = /^([A-Za-z]+)=(.*)$/.exec(line);
    if (!pair) throw new Error(`${where}: not a Key=value line: ${line}`);
    if (!section) throw new Error(`${where}: ${pair[1]} outside a section`);
    if (!KNOWN[section].includes(pair[1])) {
      throw new Error(`${where}: unknown key ${pair[1]} in [${section}]`);
    }
    (unit[section][pair[1]] ??= []).push(pair[2]);
  });
  return unit;
}
