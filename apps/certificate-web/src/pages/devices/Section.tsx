import { Paper, Stack, Title } from '@mantine/core';
import type { ReactNode } from 'react';

/** A titled block of the card. */
export function Section({
  title,
  children,
  testId,
}: {
  title: string;
  children: ReactNode;
  testId?: string;
}) {
  return (
    <Paper withBorder p="sm" component="section" aria-label={title} data-testid={testId}>
      <Stack gap="xs">
        <Title order={2} size="h5">
          {title}
        </Title>
        {children}
      </Stack>
    </Paper>
  );
}
