import { Injectable } from '@nestjs/common';
import { Logger } from 'nestjs-pino';
import { loggableError } from '../logged-error';

// Nest's start-up chatter (module and route mapping) is useful only when debugging.
const START_UP_CONTEXTS = new Set([
  'InstanceLoader',
  'RoutesResolver',
  'RouterExplorer',
  'NestFactory',
]);

/** Nest's own logging (and `new Logger(...)` in services) written through the process logger. */
@Injectable()
export class NestLogger extends Logger {
  override log(message: unknown, ...optionalParams: unknown[]): void {
    const context = optionalParams[optionalParams.length - 1];
    if (typeof context === 'string' && START_UP_CONTEXTS.has(context)) {
      super.debug(message, ...optionalParams);
      return;
    }
    super.log(message, ...optionalParams);
  }

  /** An error's line text is its safe message: pino would take the raw one (row values). */
  override error(message: unknown, ...optionalParams: unknown[]): void {
    if (message instanceof Error) {
      const context = optionalParams.length > 0 ? optionalParams : [undefined];
      super.error({ err: message }, loggableError(message).message, ...context);
      return;
    }
    super.error(message, ...optionalParams);
  }
}
