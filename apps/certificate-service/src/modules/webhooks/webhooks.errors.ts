import { CertsvcError } from '../../app/errors/certsvc-error';
import { certsvcErrorMessage } from '../../app/errors/error-messages';

export type WebhooksErrorCode =
  | 'webhook_not_found'
  | 'webhook_url_refused'
  | 'webhook_disabled'
  | 'webhook_encryption_key_missing'
  | 'webhooks_disabled';

export class WebhooksError extends CertsvcError<WebhooksErrorCode> {
  /** `detail`: what exactly was refused (the guard's reason), appended to the message. */
  constructor(code: WebhooksErrorCode, detail?: string) {
    super(code, detail ? `${certsvcErrorMessage(code)} (${detail})` : certsvcErrorMessage(code));
  }
}
