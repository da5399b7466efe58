// @platform/egress: the one request-forgery guard every outgoing call of the platform passes
// (docs/egress.md) — plugins' http-request in the runner, the findings service's catalog
// downloads and its calls to addresses an administrator entered, later the certificate
// service's webhooks. No framework: users inject metrics and logs.

// Address and host classification: IP literals in every spelling, special-purpose ranges, names.
export * from './ip-address';
export * from './address-classifier';
export * from './egress-host';
export { isPermitted, parsePermittedHost, permittedHostOfUrl } from './permitted-hosts';
export type { PermittedHost } from './permitted-hosts';

// The guard: policy, resolver, the pinned guard, its refusal codes.
export * from './egress-guard';
export { DEFAULT_EGRESS_POLICY } from './egress-policy';
export type { EgressPolicy } from './egress-policy';
export { readEgressPolicy } from './egress-settings';
export { dnsServerResolver, systemResolver } from './egress-resolver';
export type { EgressResolver } from './egress-resolver';
export { PinnedEgressGuard } from './pinned-egress-guard';
export type { PinnedEgressGuardOptions } from './pinned-egress-guard';
export { DEFAULT_EGRESS_LABELS, checkEgressUrl } from './egress-check';
export type { EgressLabels, EgressUrlCheck } from './egress-check';

// Service-side calls: one request under a policy, or a client for admin-entered URLs.
export { createOutboundHttp, guardedRequest } from './outbound-http';
export type { GuardWiring, OutboundCall, OutboundHttp, OutboundHttpOptions } from './outbound-http';

// Connections that are not HTTP (an LDAP directory): the same checks, the caller dials the IP.
export { checkTcpTarget, checkTcpTargetForm } from './egress-tcp';
export type { CheckedTcpTarget, TcpTargetCheck, TcpTargetOptions } from './egress-tcp';
