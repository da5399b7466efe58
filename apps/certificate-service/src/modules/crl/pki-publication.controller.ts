import { applyDecorators, Controller, Get, Req, Res } from '@nestjs/common';
import { ApiHeader, ApiOkResponse, ApiProduces, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Public } from '../../app/access/access.decorators';
import { IssuerRegistry } from '../ca/issuer-registry';
import type { CrlAuthority } from './crl.repository';
import { CrlService } from './crl.service';
import {
  CA_CERTIFICATE_MAX_AGE_SECONDS,
  crlMaxAge,
  PEM_MEDIA_TYPE,
  sendPublished,
  type ConditionalHeaders,
} from './pki-http';

const CRL_DOC = {
  description:
    'Current CRL, DER (`application/pkix-crl`), or PEM with `Accept: application/x-pem-file`; strong ETag, Last-Modified (thisUpdate)',
  schema: { type: 'string', format: 'binary' },
} as const;
const CERT_DOC = {
  description:
    'CA certificate, DER (`application/pkix-cert`), or PEM with `Accept: application/x-pem-file`; strong ETag',
  schema: { type: 'string', format: 'binary' },
} as const;
/** The optional request headers, documented (read from the request, never required). */
const ConditionalHeaderDocs = () =>
  applyDecorators(
    ApiHeader({ name: 'Accept', required: false, description: `${PEM_MEDIA_TYPE} for PEM` }),
    ApiHeader({ name: 'If-None-Match', required: false }),
    ApiHeader({ name: 'If-Modified-Since', required: false }),
  );

function conditionalHeaders(request: FastifyRequest): ConditionalHeaders {
  const text = (name: string) => {
    const value = request.headers[name];
    return Array.isArray(value) ? value.join(', ') : value;
  };
  return {
    accept: text('accept'),
    ifNoneMatch: text('if-none-match'),
    ifModifiedSince: text('if-modified-since'),
  };
}

const NOT_MODIFIED = {
  status: 304,
  description: 'If-None-Match names the current ETag, or If-Modified-Since is not older',
} as const;

/**
 * What relying parties (RADIUS servers, VPN gateways, browsers, `openssl -crl_download`)
 * fetch on their own, without authentication: the CRLs named by the CRL distribution points
 * and the CA certificates named by AIA caIssuers of the built-in CA's certificates
 * (docs/certificate-service/revocation.md). Outside `/api/v1`: these URLs are written into
 * certificates and must never move.
 */
@ApiTags('pki')
@Controller('pki')
@Public()
export class PkiPublicationController {
  constructor(
    private readonly crls: CrlService,
    private readonly issuers: IssuerRegistry,
  ) {}

  @Get('issuing-ca.crl')
  @ApiProduces('application/pkix-crl', PEM_MEDIA_TYPE)
  @ApiOkResponse(CRL_DOC)
  @ApiResponse(NOT_MODIFIED)
  @ConditionalHeaderDocs()
  issuingCrl(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.sendCrl('issuing', reply, conditionalHeaders(request));
  }

  @Get('root-ca.crl')
  @ApiProduces('application/pkix-crl', PEM_MEDIA_TYPE)
  @ApiOkResponse(CRL_DOC)
  @ApiResponse(NOT_MODIFIED)
  @ConditionalHeaderDocs()
  rootCrl(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.sendCrl('root', reply, conditionalHeaders(request));
  }

  @Get('issuing-ca.crt')
  @ApiProduces('application/pkix-cert', PEM_MEDIA_TYPE)
  @ApiOkResponse(CERT_DOC)
  @ApiResponse(NOT_MODIFIED)
  @ConditionalHeaderDocs()
  issuingCertificate(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.sendCertificate('issuing', reply, conditionalHeaders(request));
  }

  @Get('root-ca.crt')
  @ApiProduces('application/pkix-cert', PEM_MEDIA_TYPE)
  @ApiOkResponse(CERT_DOC)
  @ApiResponse(NOT_MODIFIED)
  @ConditionalHeaderDocs()
  rootCertificate(@Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    return this.sendCertificate('root', reply, conditionalHeaders(request));
  }

  private async sendCrl(
    authority: CrlAuthority,
    reply: FastifyReply,
    headers: ConditionalHeaders,
  ): Promise<void> {
    const crl = await this.crls.latest(new Date(), authority);
    await sendPublished(
      reply,
      {
        der: crl.der,
        label: 'X509 CRL',
        mediaType: 'application/pkix-crl',
        fileName: authority === 'issuing' ? 'issuing-ca.crl' : 'root-ca.crl',
        lastModified: crl.thisUpdate,
        maxAgeSeconds: crlMaxAge(crl.nextUpdate),
      },
      headers,
    );
  }

  private async sendCertificate(
    authority: CrlAuthority,
    reply: FastifyReply,
    headers: ConditionalHeaders,
  ): Promise<void> {
    const { issuingDer, rootDer } = this.issuers.builtIn().caCertificates();
    await sendPublished(
      reply,
      {
        der: authority === 'issuing' ? issuingDer : rootDer,
        label: 'CERTIFICATE',
        mediaType: 'application/pkix-cert',
        fileName: authority === 'issuing' ? 'issuing-ca.crt' : 'root-ca.crt',
        maxAgeSeconds: CA_CERTIFICATE_MAX_AGE_SECONDS,
      },
      headers,
    );
  }
}
