import { Body, Controller, Get, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { toCsv } from '../../app/http/csv';
import { CsvExport } from '../../app/http/csv-export.decorator';
import { CurrentActor, Roles } from '../../app/access/access.decorators';
import type { Actor } from '../../app/access/actor';
import { READER_ROLES } from '../../app/access/roles';
import { DeviceKeysService } from './device-keys.service';
import { SetOverridesDto, SetOwnerDto, SetPurposesDto } from './dto/device-changes.dto';
import { deviceFilterOf, DeviceQueryDto } from './dto/device-query.dto';
import {
  AgentVersionsDto,
  DeviceDto,
  DevicePageDto,
  DevicePurposesDto,
  RotatedEnrollmentTokenDto,
} from './dto/device.dto';
import { pageOf } from '../../app/http/paging.dto';
import { PurposeDecisionDto, PurposeRequestDto } from './dto/purpose-request.dto';
import { DevicesService } from './devices.service';
import { purposeParam } from './purpose-param';
import { PurposeRequestsService } from './purpose-requests.service';

const CSV_MAX_ROWS = 100_000;

@ApiTags('devices')
@Controller('api/v1')
export class DevicesController {
  constructor(
    private readonly devices: DevicesService,
    private readonly keys: DeviceKeysService,
    private readonly purposeRequests: PurposeRequestsService,
  ) {}

  @Get('devices')
  @Roles(...READER_ROLES)
  @ApiOkResponse({ type: DevicePageDto })
  async list(@Query() query: DeviceQueryDto): Promise<DevicePageDto> {
    const { page, limit, offset } = pageOf(query);
    const { items, total } = await this.devices.list(deviceFilterOf(query), limit, offset);
    return { items: items.map(DeviceDto.from), page, limit, total };
  }

  @CsvExport('devices.csv', 'devices as CSV, newest first')
  @Roles(...READER_ROLES)
  async csv(@Query() query: DeviceQueryDto): Promise<string> {
    const views = await this.devices.export(deviceFilterOf(query), CSV_MAX_ROWS);
    return toCsv(
      [
        'serial',
        'hostname',
        'owner',
        'assigned_purposes',
        'blocked',
        'agent_version',
        'platform',
        'last_seen_at',
        'created_at',
      ],
      views.map(({ device: d }) => [
        d.serial,
        d.hostname,
        d.owner,
        d.assignedPurposes.join(' '),
        d.blocked,
        d.agentVersion,
        d.platform,
        d.lastSeenAt,
        d.createdAt,
      ]),
    );
  }

  @Get('devices/agent-versions')
  @Roles(...READER_ROLES)
  @ApiOkResponse({ type: AgentVersionsDto })
  async agentVersions(): Promise<AgentVersionsDto> {
    const rows = await this.devices.agentVersions();
    return {
      items: rows.map((r) => ({
        agent_version: r.agentVersion,
        devices: r.devices,
        last_seen_at: r.lastSeenAt?.toISOString() ?? null,
      })),
    };
  }

  @Get('devices/:serial/purposes')
  @Roles(...READER_ROLES)
  @ApiOkResponse({ type: DevicePurposesDto })
  async purposes(@Param('serial') serial: string): Promise<DevicePurposesDto> {
    return DevicePurposesDto.from(await this.devices.get(serial));
  }

  @Put('devices/:serial/purposes')
  @Roles('cert-admin')
  @ApiOkResponse({ type: DevicePurposesDto })
  async setPurposes(
    @CurrentActor() actor: Actor,
    @Param('serial') serial: string,
    @Body() body: SetPurposesDto,
  ): Promise<DevicePurposesDto> {
    return DevicePurposesDto.from(await this.devices.setPurposes(actor, serial, body.purposes));
  }

  @Put('devices/:serial/owner')
  @Roles('cert-admin')
  @ApiOkResponse({ type: DeviceDto })
  async setOwner(
    @CurrentActor() actor: Actor,
    @Param('serial') serial: string,
    @Body() body: SetOwnerDto,
  ): Promise<DeviceDto> {
    return DeviceDto.from(await this.devices.setOwner(actor, serial, body.owner));
  }

  @Put('devices/:serial/purpose-overrides')
  @Roles('cert-admin')
  @ApiOkResponse({ type: DevicePurposesDto })
  async setOverrides(
    @CurrentActor() actor: Actor,
    @Param('serial') serial: string,
    @Body() body: SetOverridesDto,
  ): Promise<DevicePurposesDto> {
    return DevicePurposesDto.from(await this.devices.setOverrides(actor, serial, body.overrides));
  }

  @Post('devices/:serial/purposes/:purpose/decision')
  @Roles('cert-admin')
  @HttpCode(200)
  @ApiOkResponse({ type: PurposeRequestDto })
  async decide(
    @CurrentActor() actor: Actor,
    @Param('serial') serial: string,
    @Param('purpose') purpose: string,
    @Body() body: PurposeDecisionDto,
  ): Promise<PurposeRequestDto> {
    const request = await this.purposeRequests.decide(
      actor,
      serial,
      purposeParam(purpose),
      body.decision,
    );
    return PurposeRequestDto.from({ request, serial });
  }

  @Post('devices/:serial/rotate-enrollment-token')
  @Roles('cert-admin')
  @HttpCode(200)
  @ApiOkResponse({ type: RotatedEnrollmentTokenDto })
  async rotate(
    @CurrentActor() actor: Actor,
    @Param('serial') serial: string,
  ): Promise<RotatedEnrollmentTokenDto> {
    const { token } = await this.keys.rotateEnrollmentToken(actor, serial);
    return { serial, enrollment_token: token };
  }

  @Post('devices/:serial/unbind-tpm')
  @Roles('cert-admin')
  @HttpCode(200)
  @ApiOkResponse({ type: DeviceDto })
  async unbindTpm(
    @CurrentActor() actor: Actor,
    @Param('serial') serial: string,
  ): Promise<DeviceDto> {
    return DeviceDto.from(await this.keys.unbindTpm(actor, serial));
  }

  @Post('devices/:serial/release-tpm-pin')
  @Roles('cert-admin')
  @HttpCode(200)
  @ApiOkResponse({ type: DeviceDto })
  async releaseTpmPin(
    @CurrentActor() actor: Actor,
    @Param('serial') serial: string,
  ): Promise<DeviceDto> {
    return DeviceDto.from(await this.keys.releaseTpmPin(actor, serial));
  }

  @Post('devices/:serial/release-enroll-key')
  @Roles('cert-admin')
  @HttpCode(200)
  @ApiOkResponse({ type: DeviceDto })
  async releaseEnrollKey(
    @CurrentActor() actor: Actor,
    @Param('serial') serial: string,
  ): Promise<DeviceDto> {
    return DeviceDto.from(await this.keys.releaseEnrollKey(actor, serial));
  }

  @Post('devices/:serial/release-continuity-key')
  @Roles('cert-admin')
  @HttpCode(200)
  @ApiOkResponse({ type: DeviceDto })
  async releaseContinuityKey(
    @CurrentActor() actor: Actor,
    @Param('serial') serial: string,
  ): Promise<DeviceDto> {
    return DeviceDto.from(await this.keys.releaseContinuityKey(actor, serial));
  }
}
