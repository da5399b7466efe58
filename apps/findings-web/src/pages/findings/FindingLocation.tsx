import { Anchor, Paper, Stack, Text } from '@mantine/core';
import type { Finding } from '../../api/client';
import { useI18n } from '../../i18n/i18n';
import { fileAndLines, locationText, repositoryFileUrl } from './finding-place';

/**
 * The scanner's snippet as it came: one numbered line each (from the location's start line),
 * indentation and tabs kept, long lines scrolled inside the box (never wrapped or the page
 * widened); the finding's own lines are marked.
 */
export function Snippet({
  text,
  firstLine,
  lastLine,
}: {
  text: string;
  firstLine: number | null | undefined;
  lastLine: number | null | undefined;
}) {
  const { t } = useI18n();
  const lines = text.replace(/\r\n?/g, '\n').replace(/\n$/, '').split('\n');
  const start = firstLine && firstLine > 0 ? firstLine : 1;
  const end = lastLine && lastLine >= start ? lastLine : start;
  const width = String(start + lines.length - 1).length;
  return (
    <pre
      data-testid="snippet"
      role="region"
      aria-label={t('finding.snippet')}
      tabIndex={0}
      style={{
        margin: 0,
        padding: '4px 0',
        overflowX: 'auto',
        maxWidth: '100%',
        background: 'var(--mantine-color-gray-0)',
        border: '1px solid var(--mantine-color-gray-3)',
        borderRadius: 4,
        fontSize: 12,
        lineHeight: 1.5,
        tabSize: 4,
        overflowWrap: 'normal',
      }}
    >
      {lines.map((line, i) => {
        const number = start + i;
        const own = firstLine ? number >= start && number <= end : false;
        return (
          <div
            key={number}
            data-testid="snippet-line"
            data-line={number}
            style={{
              display: 'flex',
              width: 'max-content',
              minWidth: '100%',
              background: own ? 'var(--mantine-color-yellow-1)' : undefined,
            }}
          >
            <span
              aria-hidden="true"
              data-testid="snippet-number"
              style={{
                flex: 'none',
                width: `${width + 2}ch`,
                paddingRight: '1ch',
                textAlign: 'right',
                color: 'var(--mantine-color-gray-7)',
                userSelect: 'none',
                borderRight: '1px solid var(--mantine-color-gray-3)',
                marginRight: '1ch',
              }}
            >
              {number}
            </span>
            <code style={{ whiteSpace: 'pre', fontFamily: 'monospace' }}>{line || ' '}</code>
          </div>
        );
      })}
    </pre>
  );
}

/**
 * Where the finding is: the file and lines (a link to the file at the report's commit when
 * the product has a repository address), the address or host, the logical location and the
 * snippet.
 */
export function FindingLocation({
  finding,
  repositoryUrl,
}: {
  finding: Finding;
  repositoryUrl: string | null | undefined;
}) {
  const { t } = useI18n();
  const l = finding.location;
  const fileLink = repositoryFileUrl(
    repositoryUrl,
    finding.revision,
    l.url || l.host ? null : l.file_path,
    l.start_line,
    l.end_line,
  );
  const where = locationText({ ...finding, component: null });
  return (
    <Paper withBorder p="xs">
      <Stack gap={4}>
        <Text size="sm" fw={600}>
          {t('finding.location')}
        </Text>
        {l.file_path && !l.url && !l.host && (
          <Text size="sm" ff="monospace" data-testid="location">
            {fileLink ? (
              <Anchor
                href={fileLink}
                target="_blank"
                rel="noopener noreferrer"
                data-testid="location-link"
              >
                {fileAndLines(l.file_path, l.start_line, l.end_line)}
              </Anchor>
            ) : (
              fileAndLines(l.file_path, l.start_line, l.end_line)
            )}
            {finding.revision && (
              <Text span size="xs" c="gray.8" ff="monospace">
                {' '}
                @ {finding.revision.slice(0, 12)}
              </Text>
            )}
          </Text>
        )}
        {(l.url || l.host) && (
          <Text size="sm" ff="monospace" data-testid="location">
            {where}
            {l.host && l.ip && l.ip !== l.host ? ` (${l.ip})` : ''}
            {l.protocol ? ` ${l.protocol}` : ''}
            {l.service ? ` ${l.service}` : ''}
          </Text>
        )}
        {finding.component && (
          <Text size="sm" ff="monospace" data-testid="component">
            {finding.component}
            {finding.component_version ? `@${finding.component_version}` : ''}
          </Text>
        )}
        {l.logical_location && <Text size="sm">{l.logical_location}</Text>}
        {l.snippet && <Snippet text={l.snippet} firstLine={l.start_line} lastLine={l.end_line} />}
      </Stack>
    </Paper>
  );
}
