import { getMetadataArgsStorage } from 'typeorm';
import { FindingEntity } from '../finding.entity';
import { parseQuery } from '../query';
import { findingListSql } from './finding-list.sql';
import { FINDINGS_QUERY_CATALOG } from './finding-query-catalog';
import {
  FINDING_DETAIL_COLUMNS,
  FINDING_DETAIL_OWN_COLUMNS,
  FINDING_LIST_OWN_COLUMNS,
} from './finding-selection.sql';

describe('findingListSql', () => {
  it('puts every value in parameters, visibility first, query params after the filters', () => {
    const { sql, params } = findingListSql({
      scope: { all: false, projectIds: ['p1'], productIds: ['x1'] },
      filters: { severities: ['HIGH'], host: "o'hara" },
      query: parseQuery('tags:pci OR status:new', FINDINGS_QUERY_CATALOG),
      sort: 'severity',
      order: 'desc',
      cursor: { sort: 'severity', order: 'desc', value: 4, id: 'id-1' },
      fetch: 51,
    });
    expect(sql).not.toContain("o'hara");
    expect(sql).not.toContain('pci');
    expect(params).toEqual([['p1'], ['x1'], ['HIGH'], "%o'hara%", 'pci', 'new', 'id-1', 4, 51]);
    expect(sql).toContain('(f.project_id = ANY($1::uuid[]) OR f.product_id = ANY($2::uuid[]))');
    expect(sql).toContain('(f.tags || f.report_tags || f.enrichment_tags) && ARRAY[$5]::text[]');
    expect(sql).toMatch(/\(\(CASE f\.severity .* END\), f\.id\) < \(\$8::int, \$7::uuid\)/);
    expect(sql).toMatch(/ORDER BY \(CASE f\.severity .* END\) DESC, f\.id DESC\s+LIMIT \$9$/);
  });

  it('an empty scope matches nothing', () => {
    const { sql } = findingListSql({
      scope: { all: false, projectIds: [], productIds: [] },
      filters: {},
      sort: 'id',
      order: 'asc',
      fetch: 2,
    });
    expect(sql).toContain('WHERE FALSE');
    expect(sql).toContain('ORDER BY f.id ASC');
  });
});

describe('the columns a finding is read with', () => {
  const snake = (s: string): string => s.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
  /** Stored for ingestion only; no API shape shows them. */
  const NOT_READ = [
    'identity_hash',
    'properties',
    'sla_idle_ms',
    'content_digest',
    'first_report_id',
    'last_report_id',
  ];

  it('a list names its columns and leaves out the flows, the identity hash and properties', () => {
    const { sql } = findingListSql({
      scope: { all: true },
      filters: {},
      sort: 'id',
      order: 'asc',
      fetch: 2,
    });
    expect(sql).not.toMatch(/\bf\.\*/);
    for (const column of ['code_flows', 'related_locations', 'properties', 'identity_hash'])
      expect(sql).not.toContain(`f.${column}`);
    expect(sql).toContain('f.rule_title');
    expect(FINDING_DETAIL_COLUMNS).toContain('f.code_flows');
    expect(FINDING_DETAIL_COLUMNS).toContain('f.related_locations');
  });

  it('the assignee and the ticket are lateral subqueries planned apart, not joins of the list', () => {
    // As plain LEFT JOINs PostgreSQL searched the join orders of six tables for every list
    // statement: ~1.8 of ~2 ms of planning per page (docs/benchmarks.md, issue 34).
    const { sql } = findingListSql({
      scope: { all: true },
      filters: { severities: ['HIGH'] },
      sort: 'created_at',
      order: 'desc',
      fetch: 51,
    });
    expect(sql).not.toMatch(/LEFT JOIN (users|finding_tickets|tickets)\b/);
    expect(sql).toMatch(/LEFT JOIN LATERAL \(SELECT u\.email [^)]* OFFSET 0\) u ON TRUE/);
    expect(sql).toMatch(/LEFT JOIN LATERAL \(SELECT tk\.id [\s\S]* OFFSET 0\) tk ON TRUE/);
    expect(FINDING_DETAIL_COLUMNS).toContain('c.ticket_id = tk.ticket_id');
  });

  it('every column of the entity is read by a list, by the single finding, or knowingly by none', () => {
    const columns = getMetadataArgsStorage()
      .columns.filter((c) => c.target === FindingEntity)
      .map((c) => c.options.name ?? snake(c.propertyName));
    const decided = [...FINDING_LIST_OWN_COLUMNS, ...FINDING_DETAIL_OWN_COLUMNS, ...NOT_READ];
    expect([...columns].sort()).toEqual([...decided].sort());
  });
});
