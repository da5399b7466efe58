import { Body, Controller, Delete, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiCreatedResponse, ApiNoContentResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { CurrentActor, Roles } from '../../app/access/access.decorators';
import type { Actor } from '../../app/access/actor';
import { AddTpmRootDto, TpmRootDto, TpmRootListDto } from './dto/tpm-root.dto';
import { TpmRootsService } from './tpm-roots.service';

/** TPM vendor roots: a setting, so cert-admin only, reading included (specification, Roles). */
@ApiTags('settings')
@Controller('api/v1/settings/tpm-roots')
@Roles('cert-admin')
export class TpmRootsController {
  constructor(private readonly roots: TpmRootsService) {}

  @Get()
  @ApiOkResponse({ type: TpmRootListDto })
  async list(): Promise<TpmRootListDto> {
    return { items: (await this.roots.list()).map(TpmRootDto.from) };
  }

  @Post()
  @ApiCreatedResponse({ type: TpmRootDto })
  async add(@CurrentActor() actor: Actor, @Body() body: AddTpmRootDto): Promise<TpmRootDto> {
    return TpmRootDto.from(await this.roots.add(actor, body.name, body.certificate_pem));
  }

  @Delete(':id')
  @HttpCode(204)
  @ApiNoContentResponse({ description: 'removed; EK certificates under it are no longer trusted' })
  async remove(@CurrentActor() actor: Actor, @Param('id') id: string): Promise<void> {
    await this.roots.remove(actor, id);
  }
}
