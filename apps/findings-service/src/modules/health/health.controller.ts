import { Controller, Get, Inject } from '@nestjs/common';
import { ApiOkResponse, ApiProperty, ApiTags } from '@nestjs/swagger';
import { currentBuildInfo } from '@platform/versioning';
import { ApiDataResponse } from '../../app/http/api-responses';
import { API_PREFIX } from '../../app/http/data-envelope.interceptor';
import { FINDINGS_CONFIG } from '../../app/config/config.tokens';
import { FindingsConfig } from '../../app/config/findings-config';
import { Public, RateLimit } from '../../app/access/access.decorators';

export class HealthDto {
  @ApiProperty({ enum: ['ok'] }) status!: 'ok';
}

export class VersionDto {
  @ApiProperty({ example: 'backend', description: '`backend` for the API, `worker` for workers' })
  component!: string;
  @ApiProperty({ example: '0.1.20260101120000+abc1234', description: 'X.Y.BUILD+COMMIT' })
  version!: string;
  @ApiProperty({ example: 'abc1234' }) commit!: string;
  @ApiProperty({ format: 'date-time' }) built_at!: string;
}

/** Liveness and build identity; not rate limited, plain JSON outside `/api/v1`. */
@ApiTags('meta')
@Controller()
export class HealthController {
  constructor(@Inject(FINDINGS_CONFIG) private readonly config: FindingsConfig) {}

  @Get('health')
  @Public()
  @RateLimit('none')
  @ApiOkResponse({ type: HealthDto })
  health(): HealthDto {
    return { status: 'ok' };
  }

  @Get('version')
  @Public()
  @RateLimit('none')
  @ApiOkResponse({ type: VersionDto })
  version(): VersionDto {
    return this.versionBody();
  }

  @Get(`${API_PREFIX}/version`)
  @Public()
  @RateLimit('none')
  @ApiDataResponse(VersionDto)
  apiVersion(): VersionDto {
    return this.versionBody();
  }

  private versionBody(): VersionDto {
    const build = currentBuildInfo();
    return {
      component: this.config.role === 'api' ? 'backend' : 'worker',
      version: build.version,
      commit: build.commit,
      built_at: build.builtAt,
    };
  }
}
