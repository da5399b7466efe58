// The runner's wiring of the shared guard (@platform/egress): its metric and its wording.
export * from './egress-metrics';
export * from './egress.provider';
