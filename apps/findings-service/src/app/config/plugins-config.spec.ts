import { ConfigError, EnvReader } from '@platform/config';
import { DEFAULT_OFFICIAL_CATALOG_URL, readPluginsConfig } from './plugins-config';

function read(env: Record<string, string>, production = false, jwt?: string) {
  const r = new EnvReader(env);
  const config = readPluginsConfig(r, production, jwt);
  try {
    r.done();
    return { config, problems: [] as string[] };
  } catch (error) {
    return { config, problems: (error as ConfigError).problems };
  }
}

describe('plugins config', () => {
  it('defaults: official catalog URL, no local catalogs, 64 MiB artifacts', () => {
    const { config, problems } = read({});
    expect(problems).toEqual([]);
    expect(config.officialCatalogUrl).toBe(DEFAULT_OFFICIAL_CATALOG_URL);
    expect(config.catalogAllowLocal).toBe(false);
    expect(config.artifactMaxBytes).toBe(64 * 1024 * 1024);
    expect(config.secretsKeySource).toBe('development');
  });

  it('takes PLUGIN_SECRETS_KEY, else derives from JWT_SECRET', () => {
    const key = 'k'.repeat(40);
    expect(read({ PLUGIN_SECRETS_KEY: key }, true, 'j'.repeat(40)).config).toMatchObject({
      secretsKey: key,
      secretsKeySource: 'PLUGIN_SECRETS_KEY',
    });
    const derived = read({}, true, 'j'.repeat(40)).config;
    expect(derived.secretsKeySource).toBe('JWT_SECRET');
    expect(derived.secretsKey).not.toBe('j'.repeat(40));
  });

  it('refuses a short key, a non-http official URL and a local catalog in production', () => {
    expect(read({ PLUGIN_SECRETS_KEY: 'short' }).problems).toEqual([
      expect.stringContaining('PLUGIN_SECRETS_KEY'),
    ]);
    expect(read({ PLUGIN_OFFICIAL_CATALOG_URL: 'ftp://x' }).problems).toEqual([
      expect.stringContaining('PLUGIN_OFFICIAL_CATALOG_URL'),
    ]);
    expect(read({ PLUGIN_CATALOG_ALLOW_LOCAL: 'true' }, true).problems).toEqual([
      expect.stringContaining('PLUGIN_CATALOG_ALLOW_LOCAL'),
    ]);
    expect(read({ PLUGIN_CATALOG_ALLOW_LOCAL: 'true' }).config.catalogAllowLocal).toBe(true);
  });
});
