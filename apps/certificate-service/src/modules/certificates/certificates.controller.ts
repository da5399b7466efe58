import { Body, Controller, Get, Param, Put, Query, Res } from '@nestjs/common';
import { ApiOkResponse, ApiProduces, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { CurrentActor, Roles } from '../../app/access/access.decorators';
import type { Actor } from '../../app/access/actor';
import { READER_ROLES } from '../../app/access/roles';
import { CertificatesService } from './certificates.service';
import { CertificateDto, KeyProtectionDto } from './dto/certificate.dto';
import {
  certificateFilterOf,
  CertificateListItemDto,
  CertificatePageDto,
  CertificateQueryDto,
} from './dto/certificate-list.dto';
import { pageOf } from '../../app/http/paging.dto';

@ApiTags('certificates')
@Controller('api/v1/certificates')
export class CertificatesController {
  constructor(private readonly certificates: CertificatesService) {}

  @Get()
  @Roles(...READER_ROLES)
  @ApiOkResponse({ type: CertificatePageDto })
  async list(@Query() query: CertificateQueryDto): Promise<CertificatePageDto> {
    const { page, limit, offset } = pageOf(query);
    const { items, total } = await this.certificates.list(
      certificateFilterOf(query),
      limit,
      offset,
    );
    return { items: items.map(CertificateListItemDto.fromRow), page, limit, total };
  }

  @Get(':serial')
  @Roles(...READER_ROLES)
  @ApiOkResponse({ type: CertificateListItemDto })
  async one(@Param('serial') serial: string): Promise<CertificateListItemDto> {
    return CertificateListItemDto.fromRow(await this.certificates.describe(serial));
  }

  @Get(':serial/bundle')
  @Roles(...READER_ROLES)
  @ApiProduces('application/zip')
  @ApiOkResponse({ description: 'certificate.pem, chain.pem, fullchain.pem, ca.pem' })
  async bundle(@Param('serial') serial: string, @Res() reply: FastifyReply): Promise<void> {
    const { serial: normalized, zip } = await this.certificates.bundle(serial);
    await reply
      .header('content-type', 'application/zip')
      .header('content-disposition', `attachment; filename="certificate-${normalized}.zip"`)
      .send(zip);
  }

  @Put(':serial/key-protection')
  @Roles('cert-admin')
  @ApiOkResponse({ type: CertificateDto })
  async keyProtection(
    @CurrentActor() actor: Actor,
    @Param('serial') serial: string,
    @Body() body: KeyProtectionDto,
  ): Promise<CertificateDto> {
    return CertificateDto.from(await this.certificates.setKeyProtection(actor, serial, body.level));
  }
}
