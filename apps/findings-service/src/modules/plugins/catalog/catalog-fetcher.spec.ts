import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FindingsConfig } from '../../../app/config/findings-config';
import { CatalogDownloadFailed, CatalogFetcher, CatalogUrlRefused } from './catalog-fetcher';

function fetcher(allowLocal: boolean): CatalogFetcher {
  return new CatalogFetcher({
    plugins: { catalogAllowLocal: allowLocal, catalogTimeoutMs: 5_000 },
  } as unknown as FindingsConfig);
}

function refusal(f: CatalogFetcher, url: string): string {
  try {
    f.checkUrlForm(url);
  } catch (error) {
    expect(error).toBeInstanceOf(CatalogUrlRefused);
    return (error as CatalogUrlRefused).reason;
  }
  return 'accepted';
}

describe('catalog fetch: the request-forgery rules of plugin egress', () => {
  it('refuses http, local and forbidden hosts by default, in any spelling', () => {
    const f = fetcher(false);
    expect(refusal(f, 'http://plugins.example.com/c.json')).toBe('scheme must be https');
    for (const url of [
      'https://127.0.0.1/c.json',
      'https://127.1/c.json',
      'https://0x7f000001/c.json',
      'https://[::ffff:127.0.0.1]/c.json',
      'https://10.0.0.5/c.json',
      'https://localhost/c.json',
      'https://catalog.internal/c.json',
      'https://169.254.169.254/latest',
      'https://metadata.google.internal/c.json',
    ]) {
      expect([url, refusal(f, url)]).not.toEqual([url, 'accepted']);
    }
    expect(refusal(f, 'https://user:pw@plugins.example.com/c.json')).toBe('credentials in the URL');
    expect(refusal(f, 'https://plugins.example.com/c.json')).toBe('accepted');
  });

  it('PLUGIN_CATALOG_ALLOW_LOCAL admits http and local addresses, never metadata', () => {
    const f = fetcher(true);
    expect(refusal(f, 'http://127.0.0.1:8080/c.json')).toBe('accepted');
    expect(refusal(f, 'https://localhost/c.json')).toBe('accepted');
    expect(refusal(f, 'http://169.254.169.254/latest')).toContain('metadata');
    expect(refusal(f, 'https://metadata.google.internal/c.json')).toContain('forbidden');
  });

  describe('downloads', () => {
    let server: http.Server;
    let base: string;
    beforeAll(async () => {
      server = http.createServer((req, res) => {
        if (req.url === '/redirect') res.writeHead(302, { location: '/ok' }).end();
        else if (req.url === '/big') res.writeHead(200).end(Buffer.alloc(5000));
        else res.writeHead(200).end('{"ok":true}');
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    });
    afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

    it('reads a document, does not follow redirects, caps the size', async () => {
      const f = fetcher(true);
      expect((await f.get(`${base}/ok`, 1000)).toString()).toBe('{"ok":true}');
      await expect(f.get(`${base}/redirect`, 1000)).rejects.toThrow(CatalogDownloadFailed);
      await expect(f.get(`${base}/redirect`, 1000)).rejects.toThrow(/redirects are not followed/);
      await expect(f.get(`${base}/big`, 1000)).rejects.toThrow(/larger than 1000 bytes/);
    });

    it('refuses the loopback server without the development setting', async () => {
      await expect(fetcher(false).get(`${base}/ok`, 1000)).rejects.toThrow(CatalogUrlRefused);
    });
  });
});
