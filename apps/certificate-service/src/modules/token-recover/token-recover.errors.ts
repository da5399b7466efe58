import { CertsvcError } from '../../app/errors/certsvc-error';
import { certsvcErrorMessage } from '../../app/errors/error-messages';

export type TokenRecoverErrorCode = 'token_recover_failed';

/**
 * The one refusal of `POST /enroll/token-recover`: unknown serial, no such key pinned, a
 * signature that does not verify and a used or expired nonce all answer the same 403, so the
 * route does not tell whether a serial exists or has a key pinned (the cause is in the server
 * log only).
 */
export class TokenRecoverError extends CertsvcError<TokenRecoverErrorCode> {
  constructor(code: TokenRecoverErrorCode = 'token_recover_failed') {
    super(code, certsvcErrorMessage(code));
  }
}
