import { sshKeygenKey, type SshKeygenKind } from '@platform/pki/testing';
import { enrollDevice, type EnrolledDevice } from '../fixtures/enroll';
import { bearer, type TestUser } from '../support/sessions';
import type { TestApp } from '../support/test-app';

export interface SshRequest {
  device: EnrolledDevice;
  requestId: string;
  agentSecret: string;
  publicKey: string;
  fingerprint: string;
}

/** Assigns `ssh` (with `wifi`) and sets the owner of a device through the admin API. */
export async function prepareSshDevice(
  t: TestApp,
  admin: TestUser,
  device: EnrolledDevice,
  owner: string | null,
): Promise<void> {
  await t.http
    .put(`/api/v1/devices/${device.serial}/purposes`)
    .set(...bearer(admin.accessToken))
    .send({ purposes: ['wifi', 'ssh'] })
    .expect(200);
  await t.http
    .put(`/api/v1/devices/${device.serial}/owner`)
    .set(...bearer(admin.accessToken))
    .send({ owner })
    .expect(200);
}

export function enrollSsh(t: TestApp, device: EnrolledDevice, publicKey: string) {
  return t.http.post('/api/v1/enroll/ssh').send({
    serial: device.serial,
    enrollment_token: device.enrollmentToken,
    public_key: publicKey,
    agent_version: '2.4.1',
  });
}

/** A device enrolled, owned by `owner`, with a pending `ssh` request for a new `kind` key. */
export async function sshRequest(
  t: TestApp,
  admin: TestUser,
  options: { owner?: string | null; kind?: SshKeygenKind; device?: EnrolledDevice } = {},
): Promise<SshRequest> {
  const device = options.device ?? (await enrollDevice(t));
  if (!options.device) {
    await prepareSshDevice(
      t,
      admin,
      device,
      options.owner === undefined ? 'alice@corp.example.com' : options.owner,
    );
  }
  const publicKey = sshKeygenKey(options.kind ?? 'ed25519').publicKey;
  const res = await enrollSsh(t, device, publicKey).expect(201);
  const body = res.body as { request_id: string; agent_secret: string; fingerprint: string };
  return {
    device,
    requestId: body.request_id,
    agentSecret: body.agent_secret,
    publicKey,
    fingerprint: body.fingerprint,
  };
}

export interface ApprovalRow {
  request_id: string;
  status: 'issued' | 'ca_pending' | 'error';
  serial?: string;
  error?: string;
}

export async function approveSsh(
  t: TestApp,
  token: string,
  requestIds: string[],
): Promise<ApprovalRow[]> {
  const res = await t.http
    .post('/api/v1/requests/approve')
    .set(...bearer(token))
    .send({ request_ids: requestIds })
    .expect(200);
  return (res.body as { results: ApprovalRow[] }).results;
}

export interface AgentSshCertificate {
  request_id: string;
  purpose: 'ssh';
  serial: string;
  ssh_serial: string;
  ssh_certificate: string;
  ca_public_key: string;
  key_id: string;
  principals: string[];
  not_before: string;
  not_after: string;
  bundle_version: string;
}

export function agentCertificate(t: TestApp, request: SshRequest, ifNoneMatch?: string) {
  const req = t.http
    .get(`/api/v1/requests/${request.requestId}/certificate`)
    .set('x-agent-secret', request.agentSecret);
  return ifNoneMatch ? req.set('if-none-match', ifNoneMatch) : req;
}

/** Enrolls, approves and fetches one SSH certificate. */
export async function issuedSsh(
  t: TestApp,
  admin: TestUser,
  options: Parameters<typeof sshRequest>[2] = {},
): Promise<{ request: SshRequest; certificate: AgentSshCertificate }> {
  const request = await sshRequest(t, admin, options);
  const [row] = await approveSsh(t, admin.accessToken, [request.requestId]);
  if (row.status !== 'issued') throw new Error(`not issued: ${JSON.stringify(row)}`);
  const res = await agentCertificate(t, request).expect(200);
  return { request, certificate: res.body as AgentSshCertificate };
}

export interface ServedKrl {
  status: number;
  bytes: Buffer;
  etag: string;
  version: string;
  type: string;
}

/** The KRL bytes as served (publicly by default, or at `/api/v1/keyholder/krl`), with headers. */
export async function servedKrl(
  t: TestApp,
  ifNoneMatch?: string,
  path = '/api/v1/ssh/krl',
): Promise<ServedKrl> {
  let req = t.http
    .get(path)
    .buffer(true)
    .parse((response, done) => {
      const chunks: Buffer[] = [];
      response.on('data', (c: Buffer) => chunks.push(c));
      response.on('end', () => done(null, Buffer.concat(chunks)));
    });
  if (ifNoneMatch) req = req.set('if-none-match', ifNoneMatch);
  const res = await req;
  return {
    status: res.status,
    bytes: res.body as Buffer,
    etag: String(res.headers['etag']),
    version: String(res.headers['x-krl-version']),
    type: String(res.headers['content-type']),
  };
}
