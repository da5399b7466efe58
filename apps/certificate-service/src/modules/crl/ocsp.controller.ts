import { Controller, Get, HttpCode, Post, Req, Res } from '@nestjs/common';
import { ApiBody, ApiConsumes, ApiOkResponse, ApiProduces, ApiTags } from '@nestjs/swagger';
import { AcceptsBody } from '@platform/http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ocspErrorResponse } from '@platform/pki';
import { Public } from '../../app/access/access.decorators';
import { decodeOcspGetPath, OCSP_REQUEST_MEDIA_TYPE, OCSP_RESPONSE_MEDIA_TYPE } from './ocsp-body';
import { OcspService, type OcspResult } from './ocsp.service';

const OCSP_ANSWER = {
  description:
    'DER OCSPResponse (RFC 6960), signed by the issuing CA; `malformedRequest` status for a request that cannot be read',
  schema: { type: 'string', format: 'binary' },
} as const;

/** Prefix of the GET form: `/pki/ocsp/<base64 of the DER request, URL-encoded>`. */
const GET_PREFIX = '/pki/ocsp/';

/**
 * The OCSP responder of the built-in issuing CA, at the URL the AIA `ocsp` access method of
 * every issued certificate names. Public: TLS servers (OCSP stapling), VPN gateways and
 * `openssl ocsp` ask without credentials. OCSP answers in its own format, also for errors.
 */
@ApiTags('pki')
@Controller('pki')
@Public()
export class OcspController {
  constructor(private readonly ocsp: OcspService) {}

  @Post('ocsp')
  @HttpCode(200)
  @AcceptsBody(OCSP_REQUEST_MEDIA_TYPE)
  @ApiConsumes(OCSP_REQUEST_MEDIA_TYPE)
  @ApiBody({ description: 'DER OCSPRequest', schema: { type: 'string', format: 'binary' } })
  @ApiProduces(OCSP_RESPONSE_MEDIA_TYPE)
  @ApiOkResponse(OCSP_ANSWER)
  async post(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    const body = Buffer.isBuffer(request.body) ? request.body : undefined;
    await send(reply, body ? await this.ocsp.answer(body) : malformed());
  }

  @Get('ocsp/*')
  @ApiProduces(OCSP_RESPONSE_MEDIA_TYPE)
  @ApiOkResponse(OCSP_ANSWER)
  async get(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    const path = request.url.split('?', 1)[0];
    const der = path.startsWith(GET_PREFIX)
      ? decodeOcspGetPath(path.slice(GET_PREFIX.length))
      : undefined;
    await send(reply, der ? await this.ocsp.answer(der) : malformed());
  }
}

function malformed(): OcspResult {
  return { der: ocspErrorResponse('malformedRequest'), nonce: false };
}

/** 200 with the OCSPResponse; cacheable for a while only when it carries no nonce. */
async function send(reply: FastifyReply, result: OcspResult): Promise<void> {
  const { nextUpdate } = result;
  const cacheControl =
    result.nonce || nextUpdate === undefined
      ? 'no-store'
      : `public, max-age=${Math.max(0, Math.min(300, Math.floor((nextUpdate.getTime() - Date.now()) / 1000)))}, no-transform`;
  await reply
    .code(200)
    .header('content-type', OCSP_RESPONSE_MEDIA_TYPE)
    .header('cache-control', cacheControl)
    .send(result.der);
}
