import { Anchor, List, Paper, Stack, Text } from '@mantine/core';
import type { components } from '../../api/schema.gen';
import { useI18n } from '../../i18n/i18n';
import { fileAndLines, repositoryFileUrl } from './finding-place';

type RelatedLocation = components['schemas']['RelatedLocationDto'];
/** The members a related location and a flow step share. */
type FlowLocation = Omit<RelatedLocation, 'id'>;
type CodeFlow = components['schemas']['CodeFlowDto'];

/**
 * One place the scanner points at: `file:line` (a link to the file at the report's commit when
 * the product has a repository address, as the finding's own location), else the address or the
 * logical location; then its message.
 */
function Place({
  place,
  repositoryUrl,
  revision,
}: {
  place: FlowLocation;
  repositoryUrl: string | null | undefined;
  revision: string | null | undefined;
}) {
  const where = place.path
    ? fileAndLines(place.path, place.start_line, place.end_line)
    : (place.url ?? place.logical ?? '');
  const link = place.url
    ? /^https?:\/\//i.test(place.url)
      ? place.url
      : undefined
    : repositoryFileUrl(repositoryUrl, revision, place.path, place.start_line, place.end_line);
  return (
    <Text size="sm" component="span" style={{ overflowWrap: 'anywhere' }}>
      {where && (
        <Text span ff="monospace" size="sm">
          {link ? (
            <Anchor
              href={link}
              target="_blank"
              rel="noopener noreferrer"
              size="sm"
              underline="always"
              data-testid="flow-location-link"
            >
              {where}
            </Anchor>
          ) : (
            where
          )}
        </Text>
      )}
      {place.path && place.logical ? ` (${place.logical})` : ''}
      {place.message ? `${where ? ' — ' : ''}${place.message}` : ''}
    </Text>
  );
}

/** The ids of the related locations the message's `[text](id)` links can point at. */
export function relatedIdsOf(related: readonly RelatedLocation[] | undefined): Set<number> {
  return new Set((related ?? []).flatMap((r) => (r.id === undefined ? [] : [r.id])));
}

/**
 * What the scanner said besides the finding's own location: its related locations (each the
 * target `related-location-<id>` of the message's links) and its code flows, step by step.
 * Nothing when the report gave neither.
 */
export function FindingFlows({
  related,
  flows,
  repositoryUrl,
  revision,
}: {
  related: readonly RelatedLocation[] | undefined;
  flows: readonly CodeFlow[] | undefined;
  repositoryUrl: string | null | undefined;
  revision: string | null | undefined;
}) {
  const { t } = useI18n();
  const relatedList = related ?? [];
  const flowList = flows ?? [];
  if (relatedList.length === 0 && flowList.length === 0) return null;
  return (
    <Paper withBorder p="xs">
      <Stack gap="xs">
        {relatedList.length > 0 && (
          <section aria-labelledby="related-locations-title" data-testid="related-locations">
            <Text size="sm" fw={600} id="related-locations-title" component="h2" m={0}>
              {t('finding.relatedLocations')}
            </Text>
            <List size="sm" spacing={2}>
              {relatedList.map((r, i) => (
                <List.Item
                  key={i}
                  id={r.id === undefined ? undefined : `related-location-${r.id}`}
                  data-testid="related-location"
                  data-related={r.id ?? ''}
                >
                  <Place place={r} repositoryUrl={repositoryUrl} revision={revision} />
                </List.Item>
              ))}
            </List>
          </section>
        )}
        {flowList.length > 0 && (
          <section aria-labelledby="code-flows-title" data-testid="code-flows">
            <Text size="sm" fw={600} id="code-flows-title" component="h2" m={0}>
              {t('finding.codeFlows')}
            </Text>
            <Stack gap={6}>
              {flowList.map((flow, i) => (
                <div key={i} data-testid="code-flow">
                  <Text size="sm" fw={500}>
                    {t('finding.codeFlow', { n: i + 1 })}
                    {flow.message ? `: ${flow.message}` : ''}
                  </Text>
                  {flow.thread_flows.map((thread, j) => (
                    <div key={j}>
                      {(flow.thread_flows.length > 1 || thread.message) && (
                        <Text size="xs" c="gray.8">
                          {t('finding.threadFlow', { n: j + 1 })}
                          {thread.message ? `: ${thread.message}` : ''}
                        </Text>
                      )}
                      <List type="ordered" size="sm" spacing={2}>
                        {thread.steps.map((s) => (
                          <List.Item key={s.step} data-testid="flow-step" data-step={s.step}>
                            <Place place={s} repositoryUrl={repositoryUrl} revision={revision} />
                          </List.Item>
                        ))}
                      </List>
                    </div>
                  ))}
                </div>
              ))}
            </Stack>
          </section>
        )}
      </Stack>
    </Paper>
  );
}
