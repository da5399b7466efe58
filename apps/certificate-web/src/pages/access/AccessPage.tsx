import { Alert, Stack, Title } from '@mantine/core';
import { can } from '../../access';
import { useSession } from '../../auth/useSession';
import { useI18n } from '../../i18n/i18n';
import { ServiceAccountsPanel } from './ServiceAccountsPanel';
import { UsersPanel } from './UsersPanel';

/**
 * Access (cert-admin only: the users and service-account routes are administrators'): people
 * and their roles, service accounts. Another role reaching the address sees a notice.
 */
export default function AccessPage() {
  const { t } = useI18n();
  const { user } = useSession();
  return (
    <Stack>
      <Title order={1} size="h3">
        {t('access.title')}
      </Title>
      {can(user, 'admin') ? (
        <>
          <UsersPanel />
          <ServiceAccountsPanel />
        </>
      ) : (
        <Alert color="gray" role="status" data-testid="admin-only">
          {t('access.adminOnly')}
        </Alert>
      )}
    </Stack>
  );
}
