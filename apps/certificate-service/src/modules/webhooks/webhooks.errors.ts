import { CertsvcError } from '../../app/errors/certsvc-error';
import { certsvcErrorMessage } from '../../app/errors/error-messages';

export type WebhooksErrorCode =
  | 'webhook_not_found'
  | 'webhook_url_refused'
  | 'webhook_disabled'
  | 'webhook_encryption_key_missing';

export class WebhooksError extends CertsvcError<WebhooksErrorCode> {
  constructor(code: WebhooksErrorCode, details?: Record<string, unknown>) {
    super(code, certsvcErrorMessage(code), details);
  }
}
