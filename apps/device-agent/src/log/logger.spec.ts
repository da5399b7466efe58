import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AgentLogger, userHalfPath } from './logger';
import { RotatingFile } from './rotating-file';

const at = () => new Date('2030-01-02T03:04:05.000Z');

describe('AgentLogger', () => {
  it('writes JSON lines at info by default and drops debug', () => {
    const lines: string[] = [];
    const logger = new AgentLogger({
      verbose: false,
      half: 'machine',
      write: (l) => lines.push(l),
      now: at,
    });
    logger.debug('hidden');
    logger.info('checked in', { request_id: 'r1', skipped: undefined });
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0])).toEqual({
      time: '2030-01-02T03:04:05.000Z',
      level: 'info',
      half: 'machine',
      msg: 'checked in',
      request_id: 'r1',
    });
  });

  it('with --verbose writes console lines at debug, the file still JSON', () => {
    const dir = mkdtempSync(join(tmpdir(), 'agent-log-'));
    try {
      const lines: string[] = [];
      const file = new RotatingFile(join(dir, 'agent.log'), 10_000, 2);
      const logger = new AgentLogger({
        verbose: true,
        half: 'user',
        file,
        write: (l) => lines.push(l),
        now: at,
      });
      logger.debug('polling', { attempt: 2 });
      logger.close();
      expect(lines).toEqual(['2030-01-02T03:04:05.000Z DEBUG polling attempt=2\n']);
      const record = JSON.parse(readFileSync(join(dir, 'agent.log'), 'utf8'));
      expect(record).toMatchObject({ level: 'debug', half: 'user', msg: 'polling', attempt: 2 });
      expect(statSync(join(dir, 'agent.log')).mode & 0o777).toBe(0o600);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('names the user half beside the machine half', () => {
    expect(userHalfPath('/var/log/certsvc-agent.log')).toBe('/var/log/certsvc-agent-user.log');
    expect(userHalfPath('/var/log/agent')).toBe('/var/log/agent-user');
    expect(userHalfPath('/var/log.d/agent')).toBe('/var/log.d/agent-user');
  });
});

describe('RotatingFile', () => {
  it('stays within its size and keeps the configured number of older files', () => {
    const dir = mkdtempSync(join(tmpdir(), 'agent-log-'));
    try {
      const path = join(dir, 'agent.log');
      const file = new RotatingFile(path, 100, 2);
      for (let i = 0; i < 20; i += 1)
        file.write(`${String(i).padStart(2, '0')} ${'x'.repeat(26)}\n`);
      file.close();
      expect(readdirSync(dir).sort()).toEqual(['agent.log', 'agent.log.1', 'agent.log.2']);
      for (const name of readdirSync(dir))
        expect(statSync(join(dir, name)).size).toBeLessThanOrEqual(100);
      expect(readFileSync(path, 'utf8')).toMatch(/^18 .*\n19 .*\n$/);
      expect(readFileSync(`${path}.1`, 'utf8')).toMatch(/^15 /);
      // A restarted agent appends to the current file and goes on rotating.
      const again = new RotatingFile(path, 100, 2);
      again.write(`20 ${'x'.repeat(26)}\n`);
      again.close();
      expect(readFileSync(path, 'utf8')).toMatch(/^18 .*\n19 .*\n20 /);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
