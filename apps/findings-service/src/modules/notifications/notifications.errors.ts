import { FindingsError } from '../../app/errors/findings-error';

export type NotificationsErrorCode = 'delivery_not_found' | 'delivery_not_retryable';

/** Errors of the notification delivery routes (docs/findings-service/notifications.md). */
export class NotificationsError extends FindingsError<NotificationsErrorCode> {
  constructor(code: NotificationsErrorCode, details?: Record<string, unknown>) {
    super(code, details);
  }
}
