import { CertsvcError } from '../../app/errors/certsvc-error';
import { certsvcErrorMessage } from '../../app/errors/error-messages';

export type UsersErrorCode =
  'user_not_found' | 'user_exists' | 'last_admin' | 'invalid_role' | 'not_local_user';

export class UsersError extends CertsvcError<UsersErrorCode> {
  constructor(code: UsersErrorCode, message = certsvcErrorMessage(code)) {
    super(code, message);
  }
}
