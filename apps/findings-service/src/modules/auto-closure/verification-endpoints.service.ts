import { Inject, Injectable } from '@nestjs/common';
import { randomBytes } from 'node:crypto';
import { SealedBox } from '@platform/auth';
import type { AccessContext } from '../../app/access/access-context';
import { Clock } from '../../app/clock';
import { FINDINGS_CONFIG } from '../../app/config/config.tokens';
import type { FindingsConfig } from '../../app/config/findings-config';
import { OutboundHttpClient } from '../outbound-http/outbound-http.client';
import { ProjectAccessService } from '../projects/project-access.service';
import { ProjectsService } from '../projects/projects.service';
import { AutoClosureError } from './auto-closure.errors';
import type { VerificationEndpointDto } from './dto/auto-closure.dto';
import {
  VerificationEndpointsRepository,
  type StoredEndpoint,
} from './verification-endpoints.repository';
import { ENDPOINT_SECRET_PURPOSE } from './verification-requester.service';

/**
 * A project's re-verification endpoint: project administrators set it; its signing secret is
 * generated here, sealed at rest and shown once (on creation and on rotation).
 */
@Injectable()
export class VerificationEndpointsService {
  private readonly box: SealedBox;

  constructor(
    @Inject(FINDINGS_CONFIG) config: FindingsConfig,
    private readonly endpoints: VerificationEndpointsRepository,
    private readonly projectAccess: ProjectAccessService,
    private readonly projects: ProjectsService,
    private readonly http: OutboundHttpClient,
    private readonly clock: Clock,
  ) {
    this.box = new SealedBox(config.autoClosure.secretsKey, ENDPOINT_SECRET_PURPOSE);
  }

  async get(access: AccessContext, projectId: string): Promise<VerificationEndpointDto> {
    await this.requireAdmin(access, projectId);
    const endpoint = await this.endpoints.get(projectId);
    return endpoint
      ? dto(endpoint)
      : { project_id: projectId, configured: false, url: null, created_at: null, updated_at: null };
  }

  async put(
    access: AccessContext,
    projectId: string,
    url: string,
    rotate: boolean,
  ): Promise<VerificationEndpointDto> {
    await this.requireAdmin(access, projectId);
    const check = this.http.check(url);
    if (!check.ok) {
      throw new AutoClosureError('verification_endpoint_invalid', { reason: check.message });
    }
    const existing = await this.endpoints.get(projectId);
    const secret = !existing || rotate ? `fvs_${randomBytes(32).toString('base64url')}` : undefined;
    const stored = await this.endpoints.put(
      projectId,
      url,
      secret === undefined ? null : this.box.seal(secret),
      this.clock.now(),
    );
    return { ...dto(stored), ...(secret === undefined ? {} : { secret }) };
  }

  /** Project administrators (global ones too) of a project that exists. */
  private async requireAdmin(access: AccessContext, projectId: string): Promise<void> {
    await this.projectAccess.requireRole(access, projectId, ['admin']);
    await this.projects.existing(projectId);
  }

  async delete(access: AccessContext, projectId: string): Promise<void> {
    await this.requireAdmin(access, projectId);
    if (!(await this.endpoints.delete(projectId))) {
      throw new AutoClosureError('verification_endpoint_missing', { project_id: projectId });
    }
  }
}

function dto(e: StoredEndpoint): VerificationEndpointDto {
  return {
    project_id: e.projectId,
    configured: true,
    url: e.url,
    created_at: e.createdAt.toISOString(),
    updated_at: e.updatedAt.toISOString(),
  };
}
