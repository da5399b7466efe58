import { Controller, Get, Inject, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { ApiOkResponse, ApiProduces, ApiTags } from '@nestjs/swagger';
import { currentBuildInfo } from '@platform/versioning';
import { CERTSVC_CONFIG, type CertsvcConfig } from '../../app/config/certsvc-config';
import { CertsvcMetrics } from '../../app/metrics/certsvc-metrics';
import { Public } from '../../app/access/access.decorators';
import { ServedFeatures } from './served-features';
import { FeaturesDto, HealthDto, VersionDto } from './system.dto';

/** Public service routes: health, metrics, version and feature flags. */
@ApiTags('system')
@Controller()
@Public()
export class SystemController {
  constructor(
    private readonly metrics: CertsvcMetrics,
    private readonly servedFeatures: ServedFeatures,
    @Inject(CERTSVC_CONFIG) private readonly config: CertsvcConfig,
  ) {}

  @Get('health')
  @ApiOkResponse({ type: HealthDto, description: 'process is up (never logged)' })
  health(): HealthDto {
    return { status: 'ok' };
  }

  @Get('metrics')
  @ApiProduces('text/plain')
  @ApiOkResponse({ description: 'Prometheus text exposition', schema: { type: 'string' } })
  async exposition(@Res({ passthrough: true }) reply: FastifyReply): Promise<string> {
    const text = await this.metrics.registry.metrics();
    // Set only once the text exists: a failed collection answers in the JSON error envelope.
    void reply.header('content-type', this.metrics.registry.contentType);
    return text;
  }

  @Get('api/v1/version')
  @ApiOkResponse({ type: VersionDto })
  version(): VersionDto {
    const build = currentBuildInfo();
    return {
      version: build.version,
      commit: build.commit,
      built_at: build.builtAt,
      image_tag: this.config.imageTag,
    };
  }

  @Get('api/v1/features')
  @ApiOkResponse({ type: FeaturesDto, description: 'what this build and configuration serve' })
  features(): FeaturesDto {
    return this.servedFeatures.current();
  }
}
