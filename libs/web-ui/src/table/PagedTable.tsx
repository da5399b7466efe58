import { Button, Checkbox, Group, Table, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import type { WebUiMessageKey } from '../core/messages';
import { useI18nOf } from '../i18n';

export interface Column<R> {
  key: string;
  header: string;
  cell(row: R): ReactNode;
}

/** Row selection of a table: the ids chosen, and which rows may be chosen at all. */
export interface Selection<R> {
  selected: ReadonlySet<string>;
  onChange(next: Set<string>): void;
  /** Rows that cannot be chosen show no box (e.g. requests no longer pending). */
  selectable?(row: R): boolean;
  /** The row's name for its box's accessible label. */
  rowName(row: R): string;
}

/**
 * A table of rows loaded page by page: the rows so far, then "Load more" while the source says
 * there are more (`hasMore`; keyset or page numbers: the caller's query decides, e.g.
 * TanStack's useInfiniteQuery). With `selection`, a box per selectable row and one for all the
 * loaded selectable rows. `rowTestId` names each row for tests (`data-testid`).
 */
export function PagedTable<R>({
  caption,
  columns,
  rows,
  rowKey,
  selection,
  hasMore,
  loadingMore,
  onMore,
  rowTestId,
}: {
  caption: string;
  columns: Column<R>[];
  rows: R[];
  rowKey(row: R): string;
  selection?: Selection<R>;
  hasMore?: boolean;
  loadingMore?: boolean;
  onMore?(): void;
  rowTestId?: string;
}) {
  const { t } = useI18nOf<WebUiMessageKey>();
  const choosable = selection
    ? rows.filter((row) => selection.selectable?.(row) ?? true).map(rowKey)
    : [];
  const allChosen =
    selection !== undefined &&
    choosable.length > 0 &&
    choosable.every((id) => selection.selected.has(id));
  const someChosen = selection !== undefined && choosable.some((id) => selection.selected.has(id));
  return (
    <>
      <Table striped highlightOnHover withTableBorder stickyHeader>
        <Table.Caption>{caption}</Table.Caption>
        <Table.Thead>
          <Table.Tr>
            {selection && (
              <Table.Th w={36}>
                <Checkbox
                  aria-label={t('common.selectAll')}
                  checked={allChosen}
                  indeterminate={someChosen && !allChosen}
                  disabled={choosable.length === 0}
                  onChange={() =>
                    selection.onChange(
                      allChosen
                        ? new Set([...selection.selected].filter((id) => !choosable.includes(id)))
                        : new Set([...selection.selected, ...choosable]),
                    )
                  }
                />
              </Table.Th>
            )}
            {columns.map((column) => (
              <Table.Th key={column.key}>{column.header}</Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((row) => {
            const id = rowKey(row);
            const canChoose = selection ? (selection.selectable?.(row) ?? true) : false;
            return (
              <Table.Tr key={id} data-testid={rowTestId} data-row-id={id}>
                {selection && (
                  <Table.Td>
                    {canChoose && (
                      <Checkbox
                        aria-label={t('common.selectRow', { name: selection.rowName(row) })}
                        checked={selection.selected.has(id)}
                        onChange={(event) => {
                          const next = new Set(selection.selected);
                          if (event.currentTarget.checked) next.add(id);
                          else next.delete(id);
                          selection.onChange(next);
                        }}
                      />
                    )}
                  </Table.Td>
                )}
                {columns.map((column) => (
                  <Table.Td key={column.key}>{column.cell(row)}</Table.Td>
                ))}
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
      {rows.length === 0 && (
        <Text size="sm" p="sm">
          {t('common.noRows')}
        </Text>
      )}
      {hasMore && onMore && (
        <Group justify="center" p="xs">
          <Button variant="default" size="xs" loading={loadingMore} onClick={onMore}>
            {t('common.loadMore')}
          </Button>
        </Group>
      )}
    </>
  );
}
