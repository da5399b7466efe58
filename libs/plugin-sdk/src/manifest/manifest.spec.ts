import {
  ManifestError,
  parseManifest,
  satisfiesServiceVersion,
  secretSettingNames,
  validateManifest,
} from './manifest';

const DIGEST = 'a'.repeat(64);

function manifest(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: 'zone-enricher',
    version: '2.0.0',
    capabilities: ['finding_enricher'],
    runtime: 'wasm',
    wit_version: '0.1.0',
    min_service_version: '>=0.33',
    allowed_hosts: ['cmdb.example.com'],
    settings: [
      { name: 'base_url', type: 'url', required: true },
      { name: 'api_token', type: 'string', secret: true },
      { name: 'region_token', type: 'string', secret: true, per_project: true },
    ],
    artifact_sha256: DIGEST,
    ...overrides,
  };
}

function problemsOf(value: unknown): string[] {
  try {
    validateManifest(value);
  } catch (error) {
    expect(error).toBeInstanceOf(ManifestError);
    return (error as ManifestError).problems;
  }
  throw new Error('the manifest was accepted');
}

describe('plugin manifest', () => {
  it('accepts a complete manifest and returns it typed, without unset optional flags', () => {
    const parsed = validateManifest(manifest({ description: 'Zones' }));
    expect(parsed).toEqual({ ...manifest(), description: 'Zones' });
    expect(secretSettingNames(parsed)).toEqual(['api_token', 'region_token']);
  });

  it('parses manifest bytes and refuses text that is not JSON', () => {
    expect(parseManifest(Buffer.from(JSON.stringify(manifest()))).id).toBe('zone-enricher');
    expect(() => parseManifest('{"id": ')).toThrow(/not JSON/);
    expect(problemsOf([])).toEqual(['the manifest must be a JSON object']);
  });

  it('refuses unknown fields, so a manifest means exactly what this format says', () => {
    expect(problemsOf(manifest({ allows_native: true }))).toEqual([
      'unknown field "allows_native"',
    ]);
    expect(
      problemsOf(manifest({ settings: [{ name: 'a', type: 'string', hidden: true }] })),
    ).toEqual(['settings[0]: unknown field "hidden"']);
  });

  it.each([
    ['id', 'Zone Enricher', /"id" must be/],
    ['id', '', /"id" must be/],
    ['version', '2.0', /semantic version/],
    ['runtime', 'docker', /"runtime" must be one of wasm, native/],
    ['wit_version', 'latest', /"wit_version" must be a version/],
    ['wit_version', '9.9.9', /9\.9\.9 is not supported \(supported: 0\.1\.0\)/],
    ['min_service_version', '^1.0', /version range/],
    ['artifact_sha256', 'A'.repeat(64), /lower-case hex SHA-256/],
    ['artifact_sha256', 'a'.repeat(63), /lower-case hex SHA-256/],
    ['capabilities', [], /non-empty list/],
    ['capabilities', ['mind_reader'], /unknown capability "mind_reader"/],
    ['capabilities', ['finding_enricher', 'finding_enricher'], /listed twice/],
    ['capabilities', ['notification_channel'], /cannot run on runtime "wasm"/],
    ['allowed_hosts', ['https://cmdb.example.com'], /lower-case DNS name/],
    ['allowed_hosts', ['*.example.com'], /lower-case DNS name/],
    ['allowed_hosts', ['cmdb.example.com:8443'], /lower-case DNS name/],
    ['allowed_hosts', ['CMDB.example.com'], /lower-case DNS name/],
    ['allowed_hosts', 'cmdb.example.com', /"allowed_hosts" must be a list/],
    // IP literals in any spelling a URL parser reads as IPv4; IPv6 has no valid DNS spelling.
    ['allowed_hosts', ['10.0.0.1'], /must be a DNS name, not an IP address/],
    ['allowed_hosts', ['169.254.169.254'], /must be a DNS name, not an IP address/],
    ['allowed_hosts', ['127.1'], /must be a DNS name, not an IP address/],
    ['allowed_hosts', ['cmdb.0x7f000001'], /must be a DNS name, not an IP address/],
    ['allowed_hosts', ['[::1]'], /lower-case DNS name/],
    ['description', 'x'.repeat(2001), /"description" must be a string of at most 2000/],
  ])('refuses %s = %j', (field, value, problem) => {
    const problems = problemsOf(manifest({ [field]: value }));
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(problem);
  });

  it('accepts DNS names with digits in them: only a numeric last label is an address', () => {
    const hosts = ['1.example.com', 'cmdb-2.example.com', 'api.0xcorp.com', 'x.y1'];
    expect(validateManifest(manifest({ allowed_hosts: hosts })).allowed_hosts).toEqual(hosts);
  });

  it('keeps a ticketing provider off the native tier and a channel off the wasm tier', () => {
    expect(
      problemsOf(manifest({ runtime: 'native', capabilities: ['ticketing_provider'] })),
    ).toEqual(['a ticketing provider can never run native']);
    expect(
      validateManifest(manifest({ runtime: 'native', capabilities: ['notification_channel'] }))
        .runtime,
    ).toBe('native');
  });

  it('takes the optional configuration check beside a wasm capability, never on the native tier', () => {
    expect(
      validateManifest(manifest({ capabilities: ['finding_enricher', 'config_validator'] }))
        .capabilities,
    ).toEqual(['finding_enricher', 'config_validator']);
    expect(
      problemsOf(
        manifest({ runtime: 'native', capabilities: ['notification_channel', 'config_validator'] }),
      ),
    ).toEqual(['capability "config_validator" cannot run on runtime "native"']);
  });

  it('checks every setting: name, type, flags, secret only for text, no duplicates', () => {
    const problems = problemsOf(
      manifest({
        settings: [
          { name: 'Token', type: 'string' },
          { name: 'port', type: 'number' },
          { name: 'pin', type: 'integer', secret: true },
          { name: 'flag', type: 'boolean', required: 'yes' },
          { name: 'dup', type: 'string' },
          { name: 'dup', type: 'string' },
          'api_token',
        ],
      }),
    );
    expect(problems).toEqual([
      'settings[0].name must be a lower-case identifier such as api_token',
      'setting "port": "type" must be one of string, url, integer, boolean, json',
      'setting "pin": a secret setting must have type "string"',
      'setting "flag": "required" must be true or false',
      'setting "dup" is listed twice',
      'settings[6] must be an object',
    ]);
  });

  it('refuses setting names starting with "_": the service reserves them (e.g. _ticket of a ticketing provider)', () => {
    expect(
      problemsOf(
        manifest({
          settings: [
            { name: '_ticket', type: 'json' },
            { name: 'ok_name', type: 'string' },
          ],
        }),
      ),
    ).toEqual(['settings[0].name "_ticket": names starting with "_" are reserved for the service']);
  });

  it('names every problem at once', () => {
    expect(problemsOf({ ...manifest(), id: 1, version: 'x', runtime: 'jvm' })).toHaveLength(3);
  });

  it('compares the service version with min_service_version ranges', () => {
    expect(satisfiesServiceVersion('>=0.33', '0.33.0')).toBe(true);
    expect(satisfiesServiceVersion('>=0.33', '0.34.1')).toBe(true);
    expect(satisfiesServiceVersion('>=0.33', '0.32.9')).toBe(false);
    expect(satisfiesServiceVersion('>=0.33 <2', '1.9.9')).toBe(true);
    expect(satisfiesServiceVersion('>=0.33 <2', '2.0.0')).toBe(false);
    expect(satisfiesServiceVersion('=1.2.3', '1.2.3')).toBe(true);
    expect(satisfiesServiceVersion('>1.2', '1.2.0')).toBe(false);
    expect(satisfiesServiceVersion('>=0.33', 'dev')).toBe(false);
    expect(satisfiesServiceVersion('nonsense', '1.0.0')).toBe(false);
  });
});
