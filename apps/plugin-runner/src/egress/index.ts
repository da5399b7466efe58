export * from './egress-guard';
export * from './egress-policy';
export * from './egress-resolver';
export * from './egress-metrics';
export * from './egress.provider';
export { PinnedEgressGuard, type PinnedEgressGuardOptions } from './pinned-egress-guard';
export { permittedHostOfUrl, parsePermittedHost } from './permitted-hosts';
