import { Tracing } from '@platform/tracing';
import { currentBuildInfo } from '@platform/versioning';
import type { FindingsConfig } from '../config/findings-config';

/** Traces of a findings process: `service.name` findings-service, `component` backend|worker. */
export function startFindingsTracing(config: FindingsConfig): Tracing {
  return Tracing.start({
    serviceName: 'findings-service',
    serviceVersion: currentBuildInfo().version,
    component: config.role === 'api' ? 'backend' : 'worker',
    settings: config.tracing,
  });
}
