import { Body, Controller, Get, HttpCode, Post, Put } from '@nestjs/common';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { CurrentActor, Roles } from '../../app/access/access.decorators';
import type { Actor } from '../../app/access/actor';
import {
  DirectoryTestDto,
  IdentityDirectoryDto,
  PutIdentityDirectoryDto,
} from './dto/identity-directory.dto';
import { IdentityDirectoryService } from './identity-directory.service';

/** The LDAP directory of identity-SID look-ups: cert-admin only, reading included. */
@ApiTags('settings')
@Controller('api/v1/settings/identity-directory')
export class IdentityDirectoryController {
  constructor(private readonly directory: IdentityDirectoryService) {}

  @Get()
  @Roles('cert-admin')
  @ApiOkResponse({ type: IdentityDirectoryDto })
  async get(): Promise<IdentityDirectoryDto> {
    return IdentityDirectoryDto.from(await this.directory.get());
  }

  @Put()
  @Roles('cert-admin')
  @ApiOkResponse({ type: IdentityDirectoryDto })
  async put(
    @CurrentActor() actor: Actor,
    @Body() body: PutIdentityDirectoryDto,
  ): Promise<IdentityDirectoryDto> {
    return IdentityDirectoryDto.from(await this.directory.put(actor, body));
  }

  /** Resolution, connect, bind and a base read of the stored setting; 200 also on failure. */
  @Post('test-connection')
  @HttpCode(200)
  @Roles('cert-admin')
  @ApiOkResponse({ type: DirectoryTestDto })
  async testConnection(): Promise<DirectoryTestDto> {
    return this.directory.testConnection();
  }
}
