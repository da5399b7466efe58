import { Body, Controller, Delete, Get, HttpCode, Post } from '@nestjs/common';
import { ApiResponse, ApiTags } from '@nestjs/swagger';
import type { AccessContext } from '../../app/access/access-context';
import { AdminOnly, CurrentAccess } from '../../app/access/access.decorators';
import { ApiDataResponse, ApiErrorResponses } from '../../app/http/api-responses';
import { API_PREFIX } from '../../app/http/data-envelope.interceptor';
import { UuidParam } from '../../app/http/uuid-param';
import {
  CallbackKeyDto,
  CreateCallbackKeyDto,
  RotateCallbackKeyDto,
} from './dto/scanner-callbacks.dto';
import { ScannerCallbackKeysService, type CallbackKeyView } from './scanner-callback-keys.service';

const iso = (d: Date | null): string | null => (d ? d.toISOString() : null);

const keyDto = (v: CallbackKeyView): CallbackKeyDto => ({
  id: v.key.id,
  key_id: v.key.keyId,
  name: v.key.name,
  project_id: v.key.projectId,
  state: v.state,
  ...(v.secret === undefined ? {} : { secret: v.secret }),
  created_at: v.key.createdAt.toISOString(),
  expires_at: iso(v.key.expiresAt),
  retired_at: iso(v.key.retiredAt),
  replaced_by: v.key.replacedBy,
  last_used_at: iso(v.key.lastUsedAt),
});

/** The scanners' callback keys: administrators only. */
@ApiTags('scanner-callbacks')
@Controller(`${API_PREFIX}/admin/scanner-callback-keys`)
@AdminOnly()
export class ScannerCallbackKeysController {
  constructor(private readonly keys: ScannerCallbackKeysService) {}

  @Get()
  @ApiDataResponse(CallbackKeyDto, { isArray: true })
  @ApiErrorResponses(401, 403, 429)
  async list(): Promise<CallbackKeyDto[]> {
    return (await this.keys.list()).map(keyDto);
  }

  @Post()
  @ApiDataResponse(CallbackKeyDto, { status: 201, description: 'Created; `secret` shown once' })
  @ApiErrorResponses(400, 401, 403, 404, 429)
  async create(
    @CurrentAccess() access: AccessContext,
    @Body() body: CreateCallbackKeyDto,
  ): Promise<CallbackKeyDto> {
    return keyDto(
      await this.keys.create(access, body.name, body.project_id?.toLowerCase() ?? null),
    );
  }

  @Post(':id/rotate')
  @ApiDataResponse(CallbackKeyDto, {
    status: 201,
    description:
      'The successor with its secret (shown once); the old key stays valid for the window',
  })
  @ApiErrorResponses(400, 401, 403, 404, 429)
  async rotate(
    @CurrentAccess() access: AccessContext,
    @UuidParam('id') id: string,
    @Body() body: RotateCallbackKeyDto,
  ): Promise<CallbackKeyDto> {
    return keyDto(await this.keys.rotate(access, id, body.window_hours));
  }

  @Delete(':id')
  @HttpCode(204)
  @ApiResponse({ status: 204, description: 'Retired' })
  @ApiErrorResponses(401, 403, 404, 429)
  async retire(@UuidParam('id') id: string): Promise<void> {
    await this.keys.retire(id);
  }
}
