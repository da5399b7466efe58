import { Tracing } from '@platform/tracing';
import { currentBuildInfo } from '@platform/versioning';
import type { CertsvcConfig } from '../config/certsvc-config';

/**
 * Traces of a certificate-service process, as the findings service has them: `service.name`
 * certificate-service, `component` backend (the API) or worker.
 */
export function startCertsvcTracing(
  config: Pick<CertsvcConfig, 'tracing'>,
  component: 'backend' | 'worker',
): Tracing {
  return Tracing.start({
    serviceName: 'certificate-service',
    serviceVersion: currentBuildInfo().version,
    component,
    settings: config.tracing,
  });
}
