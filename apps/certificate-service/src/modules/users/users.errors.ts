import { CertsvcError } from '../../app/errors/certsvc-error';

export type UsersErrorCode =
  'user_not_found' | 'user_exists' | 'last_admin' | 'invalid_role' | 'not_local_user';

const MESSAGES: Record<UsersErrorCode, string> = {
  user_not_found: 'user not found',
  user_exists: 'a user with this email already exists',
  last_admin: 'the last enabled cert-admin cannot lose the role or be disabled',
  invalid_role: 'roles of people are cert-admin, cert-approver and cert-viewer',
  not_local_user: 'the user signs in through single sign-on and has no local password',
};

export class UsersError extends CertsvcError<UsersErrorCode> {
  constructor(code: UsersErrorCode, message = MESSAGES[code]) {
    super(code, message);
  }
}
