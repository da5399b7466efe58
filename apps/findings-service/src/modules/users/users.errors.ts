import { FindingsError } from '../../app/errors/findings-error';

export type UsersErrorCode =
  'user_exists' | 'user_not_found' | 'user_is_self' | 'user_last_admin' | 'user_configured_admin';

export class UsersError extends FindingsError<UsersErrorCode> {
  constructor(code: UsersErrorCode) {
    super(code);
  }
}
