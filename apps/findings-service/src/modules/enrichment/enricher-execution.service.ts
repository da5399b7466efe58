import { Injectable } from '@nestjs/common';
import { FindingsError } from '../../app/errors/findings-error';
import { InstalledPluginsService } from '../plugins/installed-plugins/installed-plugins.service';
import { type EnricherExecutionState, EnricherExecutionStates } from './enricher-execution-state';

/** The execution state cannot be read (Redis unreachable): 503 service_unavailable. */
export class ExecutionStateError extends FindingsError<'service_unavailable'> {
  constructor(reason: string) {
    super('service_unavailable', { reason });
  }
}

/** GET /admin/installed-plugins/{id}/execution: what the background enrichment does with it. */
@Injectable()
export class EnricherExecutionService {
  constructor(
    private readonly plugins: InstalledPluginsService,
    private readonly states: EnricherExecutionStates,
  ) {}

  /** The installation's state (404 installed_plugin_not_found when it is not installed). */
  async show(pluginId: string): Promise<EnricherExecutionState> {
    const plugin = await this.plugins.get(pluginId);
    try {
      return await this.states.get(plugin.id, plugin.updatedAt);
    } catch (error) {
      throw new ExecutionStateError(`execution state store: ${(error as Error).message}`);
    }
  }
}
