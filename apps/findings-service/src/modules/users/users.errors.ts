import { FindingsError } from '../../common/errors/app-error';

export type UsersErrorCode = 'user_exists' | 'user_not_found';

export class UsersError extends FindingsError<UsersErrorCode> {
  constructor(code: UsersErrorCode) {
    super(code);
  }
}
