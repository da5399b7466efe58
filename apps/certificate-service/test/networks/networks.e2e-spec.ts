import { sql } from '../fixtures/enroll';
import { bearer, loginAdmin, type TestUser } from '../support/sessions';
import { startTestApp, type TestApp } from '../support/test-app';

interface NetworkBody {
  id: string;
  kind: string;
  name: string;
  ssid: string | null;
  hidden: boolean;
  eap_method: string;
  purpose: string;
  radius_server_names: string[];
  agent_profile_disabled: boolean;
  macos_agent_profile_disabled: boolean;
  enabled: boolean;
  disabled_at: string | null;
  created_by: string;
  updated_by: string;
}

describe('Networks - /api/v1/admin/networks*', () => {
  let t: TestApp;
  let admin: TestUser;
  beforeAll(async () => {
    t = await startTestApp();
    admin = await loginAdmin(t);
  });
  afterAll(() => t.close());

  const api = (method: 'get' | 'post' | 'put' | 'delete', path: string) =>
    t.http[method](`/api/v1/admin/networks${path}`).set(...bearer(admin.accessToken));
  const create = (body: Record<string, unknown>) => api('post', '').send(body);
  const wifi = async (extra: Record<string, unknown> = {}): Promise<NetworkBody> =>
    (await create({ kind: 'wifi', name: 'Corp', ssid: 'CorpNet', ...extra }).expect(201))
      .body as NetworkBody;
  const audit = (action: string, id: string) =>
    sql<{ actor: string; details: Record<string, unknown> }>(
      t,
      `SELECT actor, details FROM audit_log WHERE action = $1 AND target = $2`,
      [action, id],
    );
  /** Deletes every wired network: each test starts without an active one. */
  const clearWired = () => sql(t, `DELETE FROM networks WHERE kind = 'wired'`);

  it('creates a Wi-Fi network with its defaults, listed and audited', async () => {
    const body = await wifi({ ssid: 'Café-Corp ☕', hidden: true });
    expect(body).toMatchObject({
      kind: 'wifi',
      name: 'Corp',
      ssid: 'Café-Corp ☕',
      hidden: true,
      eap_method: 'eap-tls',
      purpose: 'wifi',
      radius_server_names: [],
      agent_profile_disabled: false,
      macos_agent_profile_disabled: false,
      enabled: true,
      disabled_at: null,
      created_by: admin.email,
      updated_by: admin.email,
    });
    const list = (await api('get', '').expect(200)).body as { items: NetworkBody[] };
    expect(list.items.map((n) => n.id)).toContain(body.id);
    const [record] = await audit('network.create', body.id);
    expect(record).toMatchObject({
      actor: admin.email,
      details: { kind: 'wifi', ssid: body.ssid },
    });
  });

  it('checks the SSID in bytes of UTF-8 and refuses an SSID on a wired network', async () => {
    await wifi({ ssid: 'x'.repeat(32) });
    const refused = [
      { kind: 'wifi', name: 'n' },
      { kind: 'wifi', name: 'n', ssid: '' },
      { kind: 'wifi', name: 'n', ssid: 'x'.repeat(33) },
      { kind: 'wifi', name: 'n', ssid: 'é'.repeat(17) }, // 34 bytes, 17 characters
      { kind: 'wifi', name: 'n', ssid: 'a\u0007b' },
      { kind: 'wired', name: 'n', ssid: 'CorpNet' },
      { kind: 'wired', name: 'n', hidden: true },
    ];
    for (const body of refused) {
      const res = await create(body).expect(400);
      expect({ body, code: res.body.code }).toEqual({ body, code: 'network_ssid_invalid' });
    }
  });

  it('validates the body with invalid_request (kind, EAP method, names, RADIUS names)', async () => {
    const refused = [
      {},
      { kind: 'vpn', name: 'n', ssid: 's' },
      { kind: 'wifi', name: '   ', ssid: 's' },
      { kind: 'wifi', name: 'n', ssid: 's', eap_method: 'peap-mschapv2' },
      { kind: 'wifi', name: 'n', ssid: 's', radius_server_names: ['not a name'] },
      { kind: 'wifi', name: 'n', ssid: 's', radius_server_names: 'radius.corp' },
      { kind: 'wifi', name: 'n', ssid: 's', radius_server_names: Array(17).fill('r.corp') },
      { kind: 'wifi', name: 'n', ssid: 's', hidden: 'yes' },
    ];
    for (const body of refused) {
      expect((await create(body).expect(400)).body.code).toBe('invalid_request');
    }
  });

  it('sets RADIUS server names (lower-cased, deduplicated; empty allowed), audited', async () => {
    const n = await wifi();
    const set = (names: unknown) =>
      api('put', `/${n.id}/radius-server-names`).send({ radius_server_names: names });
    const named = (await set(['Radius1.Corp.Example', 'radius1.corp.example', 'r2']).expect(200))
      .body as NetworkBody;
    expect(named.radius_server_names).toEqual(['radius1.corp.example', 'r2']);
    expect((await set([]).expect(200)).body.radius_server_names).toEqual([]);
    expect((await set(['bad_name!']).expect(400)).body.code).toBe('invalid_request');
    const records = await audit('network.radius_server_names_change', n.id);
    expect(records.map((r) => r.details)).toEqual([
      expect.objectContaining({ old: [], new: ['radius1.corp.example', 'r2'] }),
      expect.objectContaining({ old: ['radius1.corp.example', 'r2'], new: [] }),
    ]);
  });

  it('switches both agent-profile opt-outs, audited with old and new values', async () => {
    const n = await wifi();
    const agent = (
      await api('put', `/${n.id}/agent-profile-disabled`).send({ disabled: true }).expect(200)
    ).body as NetworkBody;
    expect(agent).toMatchObject({
      agent_profile_disabled: true,
      macos_agent_profile_disabled: false,
    });
    const mac = (
      await api('put', `/${n.id}/macos-agent-profile-disabled`).send({ disabled: true }).expect(200)
    ).body as NetworkBody;
    expect(mac).toMatchObject({ agent_profile_disabled: true, macos_agent_profile_disabled: true });
    await api('put', `/${n.id}/agent-profile-disabled`).send({ disabled: 'no' }).expect(400);
    expect((await audit('network.agent_profile_change', n.id))[0].details).toMatchObject({
      old: false,
      new: true,
    });
    expect(await audit('network.macos_agent_profile_change', n.id)).toHaveLength(1);
  });

  it('disables and restores (soft), deletes fully; unknown ids are 404', async () => {
    const n = await wifi();
    const off = (await api('post', `/${n.id}/disable`).expect(200)).body as NetworkBody;
    expect(off.enabled).toBe(false);
    expect(off.disabled_at).not.toBeNull();
    const on = (await api('post', `/${n.id}/restore`).expect(200)).body as NetworkBody;
    expect(on).toMatchObject({ enabled: true, disabled_at: null });
    expect(await audit('network.disable', n.id)).toHaveLength(1);
    expect(await audit('network.restore', n.id)).toHaveLength(1);
    await api('delete', `/${n.id}`).expect(204);
    expect(await sql(t, `SELECT id FROM networks WHERE id = $1`, [n.id])).toEqual([]);
    expect(await audit('network.delete', n.id)).toHaveLength(1);
    for (const id of [n.id, 'not-a-uuid']) {
      expect((await api('delete', `/${id}`).expect(404)).body.code).toBe('network_not_found');
      expect((await api('post', `/${id}/disable`).expect(404)).body.code).toBe('network_not_found');
      expect(
        (
          await api('put', `/${id}/radius-server-names`)
            .send({ radius_server_names: [] })
            .expect(404)
        ).body.code,
      ).toBe('network_not_found');
    }
  });

  it('keeps one wired network active: 409 on a second, free again once it is disabled', async () => {
    await clearWired();
    const first = (await create({ kind: 'wired', name: 'LAN' }).expect(201)).body as NetworkBody;
    expect(first).toMatchObject({ kind: 'wired', ssid: null, purpose: 'wifi' });
    const again = await create({ kind: 'wired', name: 'LAN 2' }).expect(409);
    expect(again.body.code).toBe('network_wired_active_exists');
    await api('post', `/${first.id}/disable`).expect(200);
    const second = (await create({ kind: 'wired', name: 'LAN 2' }).expect(201)).body as NetworkBody;
    // Several wired records may exist; restoring the first while the second is active is a 409.
    const restore = await api('post', `/${first.id}/restore`).expect(409);
    expect(restore.body.code).toBe('network_wired_active_exists');
    await api('post', `/${second.id}/disable`).expect(200);
    await api('post', `/${first.id}/restore`).expect(200);
  });

  it('lets only one of two truly concurrent wired creates win (repeated)', async () => {
    for (let round = 0; round < 8; round += 1) {
      await clearWired();
      const results = await Promise.all([
        create({ kind: 'wired', name: `A${round}` }),
        create({ kind: 'wired', name: `B${round}` }),
      ]);
      expect(results.map((r) => r.status).sort()).toEqual([201, 409]);
      expect(results.find((r) => r.status === 409)?.body.code).toBe('network_wired_active_exists');
      const active = await sql(
        t,
        `SELECT id FROM networks WHERE kind = 'wired' AND disabled_at IS NULL`,
      );
      expect(active).toHaveLength(1);
    }
  });

  it('lets only one of a restore racing a create win (repeated)', async () => {
    for (let round = 0; round < 6; round += 1) {
      await clearWired();
      const old = (await create({ kind: 'wired', name: 'old' }).expect(201)).body as NetworkBody;
      await api('post', `/${old.id}/disable`).expect(200);
      const results = await Promise.all([
        api('post', `/${old.id}/restore`),
        create({ kind: 'wired', name: `new${round}` }),
      ]);
      // One wins (the restore with 200 or the create with 201), the other gets the 409.
      expect(results.filter((r) => r.status === 409)).toHaveLength(1);
      expect(results.filter((r) => r.status === 200 || r.status === 201)).toHaveLength(1);
      const active = await sql(
        t,
        `SELECT id FROM networks WHERE kind = 'wired' AND disabled_at IS NULL`,
      );
      expect(active).toHaveLength(1);
    }
  });

  it('enforces the rule in the database itself', async () => {
    await clearWired();
    const insert = `INSERT INTO networks (kind, name, eap_method, created_by, updated_by)
                    VALUES ('wired', 'raw', 'eap-tls', 'test', 'test')`;
    await sql(t, insert);
    await expect(sql(t, insert)).rejects.toThrow(/UQ_networks_one_active_wired/);
  });
});
