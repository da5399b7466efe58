import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  CAPABILITY_EXPORTS,
  exportInterfaceName,
  FINDING_TYPE,
  supportedImports,
  WIT_PACKAGE,
  WIT_VERSION,
  witDirectory,
  witTypeMismatch,
} from './wit-world';

const wit = readFileSync(join(witDirectory(), 'plugin.wit'), 'utf8');

/** The functions of one interface of the WIT file: name -> parameter names. */
function functionsOf(interfaceName: string): Map<string, string[]> {
  const start = wit.indexOf(`\ninterface ${interfaceName} {`);
  expect(start).toBeGreaterThanOrEqual(0);
  const body = wit.slice(start, wit.indexOf('\n}\n', start));
  const functions = new Map<string, string[]>();
  for (const match of body.matchAll(/^ {2}([a-z-]+): func\(([^)]*)\)/gm)) {
    const params = match[2]
      .split(',')
      .map((p) => p.trim().split(':')[0])
      .filter(Boolean);
    functions.set(match[1], params);
  }
  return functions;
}

const camel = (name: string) => name.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());

describe('the WIT world findsvc:plugin', () => {
  it('is the versioned package the SDK names', () => {
    expect(wit).toMatch(new RegExp(`^package ${WIT_PACKAGE}@${WIT_VERSION};$`, 'm'));
    expect(WIT_VERSION).toBe('0.1.0');
  });

  it('gives plugins exactly the runtime calls of the spec, and the guest never names a project', () => {
    const host = functionsOf('host');
    expect([...host.keys()].sort()).toEqual(
      [
        'get-project-secret',
        'get-secret',
        'http-request',
        'is-cve-known',
        'log',
        'send-email',
      ].sort(),
    );
    expect(host.get('get-project-secret')).toEqual(['name']);
    expect(host.get('send-email')).toEqual(['message']);
    // The e-mail record has a subject and a body: no server, no recipients.
    expect(wit).toMatch(/record email \{\s*subject: string,\s*body: string,\s*\}/);
  });

  it('declares every capability export the SDK maps, operation by operation', () => {
    for (const [capability, exported] of Object.entries(CAPABILITY_EXPORTS)) {
      const functions = functionsOf(exported.interface);
      expect([...functions.keys()]).toEqual(exported.operations.map((op) => op.name));
      for (const operation of exported.operations) {
        // The host supplies `ctx`; the caller's payload names the rest.
        expect(functions.get(operation.name)).toEqual([
          'ctx',
          ...operation.params
            .map((p) => p.name)
            .map((n) => n.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)),
        ]);
        expect(operation.js).toBe(camel(operation.name));
      }
      expect(exported.js).toBe(camel(exported.interface));
      expect(wit).toMatch(
        new RegExp(`world ${exported.world} \\{\\s*import host;\\s*export ${exported.interface};`),
      );
      expect(exportInterfaceName(capability as 'finding_enricher')).toBe(
        `findsvc:plugin/${exported.interface}@0.1.0`,
      );
    }
    expect(Object.keys(CAPABILITY_EXPORTS).sort()).toEqual([
      'config_validator',
      'finding_enricher',
      'finding_source',
      'ticketing_provider',
    ]);
    expect(functionsOf('ticketing-provider').size).toBe(9);
    expect(exportInterfaceName('notification_channel')).toBeUndefined();
  });

  it('lets a component import only the host interface and its types, in both spellings', () => {
    expect(supportedImports()).toEqual([
      'findsvc:plugin/host@0.1.0',
      'findsvc:plugin/host',
      'findsvc:plugin/types@0.1.0',
      'findsvc:plugin/types',
    ]);
  });

  it('checks a payload against WIT types and names the first mismatch', () => {
    const finding = {
      id: 'f-1',
      severity: 'HIGH',
      rule: 'r',
      description: 'd',
      scanner: 's',
      status: 'open',
      cve: 'CVE-2024-1',
      port: 443,
    };
    expect(witTypeMismatch(FINDING_TYPE, finding)).toBeUndefined();
    expect(witTypeMismatch(FINDING_TYPE, { ...finding, cve: null })).toBeUndefined();
    expect(witTypeMismatch(FINDING_TYPE, { ...finding, port: 70000 }, 'finding')).toBe(
      'finding.port must be an integer from 0 to 65535',
    );
    expect(witTypeMismatch(FINDING_TYPE, { ...finding, id: 1 }, 'finding')).toBe(
      'finding.id must be a string',
    );
    expect(witTypeMismatch(FINDING_TYPE, { ...finding, extra: 'x' }, 'finding')).toBe(
      'finding.extra is not a field',
    );
    expect(witTypeMismatch(FINDING_TYPE, [finding], 'finding')).toBe('finding must be an object');
    expect(witTypeMismatch({ list: 'string' }, ['a', 2], 'ids')).toBe('ids[1] must be a string');
    expect(witTypeMismatch({ enum: ['open', 'closed'] }, 'gone', 's')).toBe(
      's must be one of open, closed',
    );
    expect(witTypeMismatch('bool', 'true', 'b')).toBe('b must be a boolean');
  });
});
