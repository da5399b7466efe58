import { FindingsError } from '../../app/errors/findings-error';

export type PluginChannelsErrorCode = 'channel_plugin_not_found' | 'channel_plugin_not_installed';

/** Errors of channel plugins per project and of the channel settings backfill. */
export class PluginChannelsError extends FindingsError<PluginChannelsErrorCode> {
  constructor(code: PluginChannelsErrorCode, details?: Record<string, unknown>) {
    super(code, details);
  }
}
