import type { EnvReader } from '@platform/config';

/** What the environment says about traces (read once at boot with the service's config). */
export interface TracingSettings {
  /**
   * OTEL_EXPORTER_OTLP_ENDPOINT: base address of an OTLP/HTTP receiver; spans are sent to
   * `<endpoint>/v1/traces`. Unset: nothing is exported (context is still propagated).
   */
  endpoint?: string;
  /** OTEL_TRACES_SAMPLER_ARG: share (0..1) of the traces started in this process that are kept. */
  samplerRatio: number;
}

/**
 * Reads OTEL_EXPORTER_OTLP_ENDPOINT and OTEL_TRACES_SAMPLER_ARG. The endpoint must name its
 * scheme: `http://` (no TLS) or `https://` (TLS); anything else (`collector:4318`) is a
 * configuration problem, so the process does not start.
 */
export function readTracingSettings(r: EnvReader): TracingSettings {
  const endpoint = r.optionalString('OTEL_EXPORTER_OTLP_ENDPOINT');
  if (endpoint !== undefined) {
    const problem = endpointProblem(endpoint);
    if (problem) r.problem(`OTEL_EXPORTER_OTLP_ENDPOINT ${problem}, got "${endpoint}"`);
  }
  const samplerRatio = r.number('OTEL_TRACES_SAMPLER_ARG', 1);
  if (samplerRatio < 0 || samplerRatio > 1) {
    r.problem(`OTEL_TRACES_SAMPLER_ARG must be between 0 and 1, got ${samplerRatio}`);
  }
  return { endpoint, samplerRatio };
}

function endpointProblem(endpoint: string): string | undefined {
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(endpoint)?.[1]?.toLowerCase();
  if (scheme !== 'http' && scheme !== 'https') {
    return 'must start with http:// (no TLS) or https:// (TLS)';
  }
  try {
    const url = new URL(endpoint);
    if (url.hostname === '') return 'names no host';
    if (url.search !== '' || url.hash !== '') return 'must not carry a query or fragment';
  } catch {
    return 'is not a valid URL';
  }
  return undefined;
}

/** Where OTLP/HTTP spans go: the signal path appended to the base endpoint (OTel convention). */
export function tracesUrl(endpoint: string): string {
  return `${endpoint.replace(/\/+$/, '')}/v1/traces`;
}
