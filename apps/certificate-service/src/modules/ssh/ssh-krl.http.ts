import type { FastifyReply } from 'fastify';
import { etagMatches } from '../agent/bundle-version';
import type { PublishedKrl } from './ssh-krl.service';

/**
 * Answers a KRL request: the cached bytes as `application/octet-stream` with the strong ETag
 * and `X-KRL-Version`, or 304 when `If-None-Match` names the current ETag. Shared by
 * `GET /api/v1/ssh/krl` and `GET /api/v1/keyholder/krl`.
 */
export async function sendKrl(
  reply: FastifyReply,
  krl: PublishedKrl,
  ifNoneMatch: string | undefined,
): Promise<void> {
  void reply
    .header('etag', krl.etag)
    .header('cache-control', 'no-cache')
    .header('x-krl-version', krl.version.toString());
  if (etagMatches(ifNoneMatch, krl.etag)) {
    await reply.code(304).send();
    return;
  }
  await reply
    .code(200)
    .header('content-type', 'application/octet-stream')
    .header('content-disposition', 'attachment; filename="certsvc-ssh.krl"')
    .send(krl.bytes);
}
