import { Body, Controller, Get, Module, Post } from '@nestjs/common';
import { IsInt, IsString, Min } from 'class-validator';
import { AccessContext } from '../../src/app/access/access-context';
import { Access, CurrentAccess, Public } from '../../src/app/access/access.decorators';
import { UuidParam } from '../../src/app/http/uuid-param';

class EchoDto {
  @IsString() name!: string;
  @IsInt() @Min(1) count!: number;
}

/** Routes mounted only in tests: key-reachable permission checks, validation and a crash. */
@Controller('api/v1/test-probe')
export class ProbeController {
  @Get('upload')
  @Access({ permission: 'upload_report' })
  upload(@CurrentAccess() access: AccessContext): { principal: string; id: string } {
    return { principal: access.principal.kind, id: access.principal.id };
  }

  @Get('projects/:projectId/findings')
  @Access({ permission: 'read_findings' })
  findings(
    @UuidParam('projectId') projectId: string,
    @CurrentAccess() access: AccessContext,
  ): { allowed: boolean } {
    return { allowed: access.can('read_findings', { projectId }) };
  }

  @Get('user-only-permission')
  @Access({ permission: 'read_metrics', principals: ['user'] })
  userOnly(): { ok: true } {
    return { ok: true };
  }

  @Post('echo')
  @Public()
  echo(@Body() body: EchoDto): EchoDto {
    return body;
  }

  @Get('boom')
  @Public()
  boom(): never {
    throw new TypeError('probe exploded');
  }
}

@Module({ controllers: [ProbeController] })
export class ProbeModule {}
