import { Controller, Get, Header, Inject } from '@nestjs/common';
import { ApiOkResponse, ApiProduces, ApiTags } from '@nestjs/swagger';
import { currentBuildInfo } from '@platform/versioning';
import { CERTSVC_CONFIG, type CertsvcConfig } from '../../config/certsvc-config';
import { CertsvcMetrics } from '../../metrics/certsvc-metrics';
import { Public } from '../auth/access/access.decorators';
import { FeaturesDto, HealthDto, VersionDto } from './system.dto';

/** Public service routes: health, metrics, version and feature flags. */
@ApiTags('system')
@Controller()
@Public()
export class SystemController {
  constructor(
    @Inject(CERTSVC_CONFIG) private readonly config: CertsvcConfig,
    private readonly metrics: CertsvcMetrics,
  ) {}

  @Get('health')
  @ApiOkResponse({ type: HealthDto, description: 'process is up (never logged)' })
  health(): HealthDto {
    return { status: 'ok' };
  }

  @Get('metrics')
  @Header('content-type', 'text/plain; version=0.0.4; charset=utf-8')
  @ApiProduces('text/plain')
  @ApiOkResponse({ description: 'Prometheus text exposition', schema: { type: 'string' } })
  exposition(): Promise<string> {
    return this.metrics.registry.metrics();
  }

  @Get('api/v1/version')
  @ApiOkResponse({ type: VersionDto })
  version(): VersionDto {
    const build = currentBuildInfo();
    return { version: build.version, commit: build.commit, built_at: build.builtAt };
  }

  @Get('api/v1/features')
  @ApiOkResponse({ type: FeaturesDto })
  features(): FeaturesDto {
    const f = this.config.features;
    return {
      local_auth: this.config.localAuth.enabled,
      oidc: false,
      scep: f.scep,
      ssh: f.ssh,
      k8s: f.k8s,
      webhooks: f.webhooks,
    };
  }
}
