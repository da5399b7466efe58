import { randomBytes } from 'node:crypto';
import type { HostCallContext } from '../plugin-host/plugin-host';
import { HostCallRefused } from '../grpc/stream-host-call-broker';

/** Host calls a native channel may make (ChannelHost in channel.proto). */
export type NativeHostCall = 'send_email';

interface Grant {
  pluginId: string;
  context: HostCallContext;
  used: Set<NativeHostCall>;
}

/**
 * Tokens of native host calls (docs/plugins/native.md, "Host calls"): one random 32-byte
 * token per Deliver, valid only while that call is in flight, bound to the plugin whose
 * process received it and to the delivery's event context. Each host call kind is allowed
 * once per token.
 */
export class HostCallTokens {
  private readonly grants = new Map<string, Grant>();

  /** A new token for a Deliver of `pluginId`; call `release` when the Deliver has ended. */
  mint(pluginId: string, context: HostCallContext): { token: string; release(): void } {
    const token = randomBytes(32).toString('hex');
    this.grants.set(token, { pluginId, context, used: new Set() });
    return { token, release: () => this.grants.delete(token) };
  }

  /**
   * The context a host call of `pluginId` may act for; refuses (`denied`) an unknown or
   * ended token, a token of another plugin's process, and a second call of the same kind.
   */
  take(pluginId: string, token: string, call: NativeHostCall): HostCallContext {
    const grant = typeof token === 'string' ? this.grants.get(token) : undefined;
    if (!grant || grant.pluginId !== pluginId) {
      throw new HostCallRefused('denied', 'the host call token is unknown or its delivery ended');
    }
    if (grant.used.has(call)) {
      throw new HostCallRefused('denied', `only one ${call} per delivery`);
    }
    grant.used.add(call);
    return grant.context;
  }

  /** Open tokens (tests: nothing outlives its delivery). */
  get size(): number {
    return this.grants.size;
  }
}
