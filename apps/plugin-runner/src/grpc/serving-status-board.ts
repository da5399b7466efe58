import type { ServingStatus } from '@platform/plugin-protocol';

type StatusListener = (service: string, status: ServingStatus) => void;

/**
 * The serving status of every service the runner answers for: `""` (the whole process),
 * `plugin-runner`, and later one entry per hosted native channel. Both the gRPC health
 * service and `GET /health` read it; shutdown flips everything to NOT_SERVING first.
 */
export class ServingStatusBoard {
  private readonly statuses = new Map<string, ServingStatus>();
  private readonly listeners = new Set<StatusListener>();
  private shuttingDown = false;

  set(service: string, status: ServingStatus): void {
    if (this.shuttingDown) return;
    this.apply(service, status);
  }

  /** Forgets a service (an unloaded plugin); Check answers NOT_FOUND for it again. */
  remove(service: string): void {
    if (!this.statuses.has(service)) return;
    this.statuses.delete(service);
    for (const listener of this.listeners) listener(service, 'SERVICE_UNKNOWN');
  }

  /** Status of a registered service, or undefined when the service is unknown. */
  get(service: string): ServingStatus | undefined {
    return this.statuses.get(service);
  }

  get isShuttingDown(): boolean {
    return this.shuttingDown;
  }

  /** Subscribes to status changes; returns the unsubscribe function. */
  onChange(listener: StatusListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Marks every service NOT_SERVING and ignores later updates. */
  enterShutdown(): void {
    for (const service of this.statuses.keys()) this.apply(service, 'NOT_SERVING');
    this.shuttingDown = true;
  }

  private apply(service: string, status: ServingStatus): void {
    if (this.statuses.get(service) === status) return;
    this.statuses.set(service, status);
    for (const listener of this.listeners) listener(service, status);
  }
}
