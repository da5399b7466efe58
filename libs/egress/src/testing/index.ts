// @platform/egress/testing: a DNS server on loopback whose answers a test programs (answers
// that change between queries show the guard dials the address it checked).
export { DnsResponder } from './dns-responder';
export type { DnsQuery, ZoneEntry } from './dns-responder';
