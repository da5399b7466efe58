import { AsyncLocalStorage } from 'node:async_hooks';
import type { Actor } from '../access/actor';

/** What the service learns about one HTTP request while handling it; read by the access log. */
export interface RequestContextState {
  readonly requestId: string;
  readonly startedAt: bigint;
  actor?: Actor;
  /** Device serial, once a handler has identified the device (enroll routes). */
  serial?: string;
  /** Problems attached by handlers or the error filter; logged as `errors`. */
  readonly errors: string[];
}

const storage = new AsyncLocalStorage<RequestContextState>();

/**
 * Per-request context (AsyncLocalStorage). The HTTP hooks open it; handlers, services and
 * the access line read it without threading the request through every call.
 */
export const RequestContext = {
  create(requestId: string): RequestContextState {
    return { requestId, startedAt: process.hrtime.bigint(), errors: [] };
  },

  run<T>(state: RequestContextState, fn: () => T): T {
    return storage.run(state, fn);
  },

  /** The current request's context, or undefined outside a request (worker, boot). */
  current(): RequestContextState | undefined {
    return storage.getStore();
  },

  /** Adds `serial` to the request's access line (enroll handlers call this). */
  setSerial(serial: string): void {
    const state = storage.getStore();
    if (state) state.serial = serial;
  },

  /** Adds a problem to the request's access line (`errors` field). */
  attachError(error: string): void {
    storage.getStore()?.errors.push(error);
  },

  setActor(actor: Actor): void {
    const state = storage.getStore();
    if (state) state.actor = actor;
  },
};

export function setSerial(serial: string): void {
  RequestContext.setSerial(serial);
}

export function attachError(error: string): void {
  RequestContext.attachError(error);
}
