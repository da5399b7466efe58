import { EgressLab, startCountingListener } from './support/egress-lab';

/**
 * The one way out that works: an https call to a permitted host, resolved by the guard,
 * dialled at the checked address, TLS verified for the host name against a CA the test
 * trusts. PLUGIN_EGRESS_ALLOW_LOCAL_DIAL is set in this file only (the stand-in is on
 * loopback); every other egress test runs with the default policy or says what it changes.
 */
describe('egress guard: allowed https call to a loopback TLS stand-in', () => {
  let lab: EgressLab;

  beforeAll(async () => {
    lab = await EgressLab.start();
    lab.dns.set('good.test', ['127.0.0.2']);
    lab.dns.set('wrongname.test', ['127.0.0.2']);
  });

  afterAll(async () => {
    await lab.close();
  });

  const localDial = () => lab.guard({ allowLocalDial: true });

  it('passes status, headers and body through', async () => {
    const outcome = await localDial().request(lab.context(`good.test:${lab.port}`), {
      method: 'GET',
      url: `https://good.test:${lab.port}/ok`,
      headers: [['accept', 'text/plain']],
    });
    expect(outcome).toMatchObject({
      ok: true,
      status: 201,
      redirects: 0,
      url: `https://good.test:${lab.port}/ok`,
    });
    if (!outcome.ok) return;
    expect(Buffer.from(outcome.body).toString()).toBe('hello from the stand-in');
    expect(outcome.headers).toEqual(
      expect.arrayContaining([
        ['x-stand-in', 'good'],
        ['set-cookie', 'a=1'],
        ['set-cookie', 'b=2'],
        ['content-type', 'text/plain'],
      ]),
    );
    expect(lab.escapes()).toBe(0);
  });

  it('sends method, headers and body as given, with the Host header of the URL', async () => {
    const outcome = await localDial().request(lab.context(`GOOD.test.:${lab.port}`), {
      method: 'POST',
      url: `https://Good.Test.:${lab.port}/echo?x=1`,
      headers: [
        ['content-type', 'application/json'],
        ['authorization', 'Bearer plugin-token'],
        ['x-multi', 'one'],
        ['x-multi', 'two'],
      ],
      body: Buffer.from('{"finding":1}'),
    });
    expect(outcome.ok).toBe(true);
    if (!outcome.ok) return;
    const echo = JSON.parse(Buffer.from(outcome.body).toString()) as {
      method: string;
      headers: Record<string, string>;
      body: string;
    };
    expect(echo.method).toBe('POST');
    expect(echo.body).toBe('{"finding":1}');
    expect(echo.headers.host).toBe(`good.test:${lab.port}`);
    expect(echo.headers.authorization).toBe('Bearer plugin-token');
    expect(echo.headers['x-multi']).toBe('one, two');
    expect(echo.headers['content-length']).toBe('13');
    expect(lab.good.at(-1)?.url).toBe('/echo?x=1');
  });

  it('ignores proxy environment variables (the call never goes through a proxy)', async () => {
    const proxy = await startCountingListener();
    const saved = { ...process.env };
    for (const name of [
      'HTTPS_PROXY',
      'https_proxy',
      'HTTP_PROXY',
      'http_proxy',
      'ALL_PROXY',
      'all_proxy',
    ]) {
      process.env[name] = `http://127.0.0.1:${proxy.port}`;
    }
    process.env.NO_PROXY = '';
    try {
      const outcome = await localDial().request(lab.context(`good.test:${lab.port}`), {
        method: 'GET',
        url: `https://good.test:${lab.port}/ok`,
      });
      expect(outcome).toMatchObject({ ok: true, status: 201 });
      expect(proxy.connections()).toBe(0);
    } finally {
      for (const name of Object.keys(process.env)) if (!(name in saved)) delete process.env[name];
      Object.assign(process.env, saved);
      await proxy.close();
    }
  });

  it('follows a same-origin redirect, keeping the credentials', async () => {
    const outcome = await localDial().request(lab.context(`good.test:${lab.port}`), {
      method: 'GET',
      url: `https://good.test:${lab.port}/redirect?to=/echo`,
      headers: [['authorization', 'Bearer same-origin']],
    });
    expect(outcome).toMatchObject({
      ok: true,
      status: 200,
      redirects: 1,
      url: `https://good.test:${lab.port}/echo`,
    });
    if (!outcome.ok) return;
    expect(JSON.parse(Buffer.from(outcome.body).toString()).headers.authorization).toBe(
      'Bearer same-origin',
    );
  });

  it('drops Authorization and Cookie when a redirect leaves the origin', async () => {
    const to = `https://127.0.0.2:${lab.port}/echo`;
    const outcome = await localDial().request(
      lab.context(`good.test:${lab.port}`, `127.0.0.2:${lab.port}`),
      {
        method: 'GET',
        url: `https://good.test:${lab.port}/redirect?to=${encodeURIComponent(to)}`,
        headers: [
          ['authorization', 'Bearer stays-home'],
          ['cookie', 'session=1'],
          ['x-kept', 'yes'],
        ],
      },
    );
    expect(outcome).toMatchObject({ ok: true, status: 200, redirects: 1, url: to });
    if (!outcome.ok) return;
    const headers = JSON.parse(Buffer.from(outcome.body).toString()).headers as Record<
      string,
      string
    >;
    expect(headers.authorization).toBeUndefined();
    expect(headers.cookie).toBeUndefined();
    expect(headers['x-kept']).toBe('yes');
    expect(headers.host).toBe(`127.0.0.2:${lab.port}`);
  });

  it('turns a POST into a GET without body on 303, and repeats it on 307', async () => {
    const context = lab.context(`good.test:${lab.port}`);
    const post = (status: number) =>
      localDial().request(context, {
        method: 'POST',
        url: `https://good.test:${lab.port}/redirect?status=${status}&to=/echo`,
        headers: [['content-type', 'text/plain']],
        body: Buffer.from('payload'),
      });
    const seeOther = await post(303);
    const temporary = await post(307);
    if (!seeOther.ok || !temporary.ok) throw new Error('redirect not followed');
    expect(JSON.parse(Buffer.from(seeOther.body).toString())).toMatchObject({
      method: 'GET',
      body: '',
    });
    expect(JSON.parse(Buffer.from(temporary.body).toString())).toMatchObject({
      method: 'POST',
      body: 'payload',
    });
  });

  it('passes a redirect through untouched when PLUGIN_EGRESS_MAX_REDIRECTS is 0', async () => {
    const outcome = await lab
      .guard({ allowLocalDial: true, maxRedirects: 0 })
      .request(lab.context(`good.test:${lab.port}`), {
        method: 'GET',
        url: `https://good.test:${lab.port}/redirect?to=/ok`,
      });
    expect(outcome).toMatchObject({ ok: true, status: 302, redirects: 0 });
    if (outcome.ok) expect(outcome.headers).toContainEqual(['location', '/ok']);
  });

  it('returns a body of exactly the cap, and HEAD without one', async () => {
    const guard = lab.guard({ allowLocalDial: true, maxResponseBytes: 4096 });
    const context = lab.context(`good.test:${lab.port}`);
    const full = await guard.request(context, {
      method: 'GET',
      url: `https://good.test:${lab.port}/big?size=4096`,
    });
    expect(full.ok && full.body.length).toBe(4096);
    const head = await guard.request(context, {
      method: 'HEAD',
      url: `https://good.test:${lab.port}/ok`,
    });
    expect(head).toMatchObject({ ok: true, status: 201 });
    expect(head.ok && head.body.length).toBe(0);
  });

  it('still verifies the certificate for the host name (not the dialled address)', async () => {
    const before = await lab.denialCount('tls_failed');
    const outcome = await localDial().request(lab.context(`wrongname.test:${lab.port}`), {
      method: 'GET',
      url: `https://wrongname.test:${lab.port}/ok`,
    });
    expect(outcome).toMatchObject({ ok: false, reason: 'tls_failed' });
    expect(await lab.denialCount('tls_failed')).toBe(before + 1);
  });

  it('refuses a certificate from a CA it does not trust', async () => {
    const outcome = await lab
      .guard({ allowLocalDial: true }, { trustCa: false })
      .request(lab.context(`good.test:${lab.port}`), {
        method: 'GET',
        url: `https://good.test:${lab.port}/ok`,
      });
    expect(outcome).toMatchObject({ ok: false, reason: 'tls_failed' });
  });
});
