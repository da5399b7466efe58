import {
  listQuery,
  readViewState,
  selectionQuery,
  writeViewState,
  type ViewState,
} from './view-state';

describe('findings view state in the URL', () => {
  it('reads what a link carries and ignores unknown parameters and bad values', () => {
    const view = readViewState(
      new URLSearchParams('severity=HIGH&project_id=p1&sort=bogus&order=up&utm_source=mail'),
    );
    expect(view).toEqual({
      mode: 'filters',
      q: '',
      filters: { severity: 'HIGH', project_id: 'p1' },
      sort: 'created_at',
      order: 'desc',
    });
  });

  it('writes a view that reads back the same (filters mode keeps filters, drops defaults)', () => {
    const view: ViewState = {
      mode: 'filters',
      q: '',
      filters: { status: 'new,confirmed', tags: 'pci' },
      sort: 'severity',
      order: 'asc',
    };
    const params = writeViewState(view);
    expect(params.toString()).toBe('status=new%2Cconfirmed&tags=pci&sort=severity&order=asc');
    expect(readViewState(params)).toEqual(view);
  });

  it('in query mode the link carries the query only, and the request sends only q', () => {
    const view: ViewState = {
      mode: 'query',
      q: 'severity:HIGH AND project:"web"',
      filters: { status: 'new' },
      sort: 'created_at',
      order: 'desc',
    };
    expect(writeViewState(view).toString()).toBe(
      'mode=query&q=severity%3AHIGH+AND+project%3A%22web%22',
    );
    expect(listQuery(view)).toEqual({ sort: 'created_at', order: 'desc', q: view.q });
    expect(listQuery({ ...view, q: '  ' })).toEqual({ sort: 'created_at', order: 'desc' });
    expect(listQuery({ ...view, mode: 'filters' })).toEqual({
      sort: 'created_at',
      order: 'desc',
      status: 'new',
    });
  });

  it('query mode keeps the suppressed findings choice, which the language has no term for', () => {
    const view: ViewState = {
      mode: 'query',
      q: 'severity:HIGH',
      filters: { status: 'new', suppression: 'only' },
      sort: 'created_at',
      order: 'desc',
    };
    const link = writeViewState(view);
    expect(link.toString()).toBe('mode=query&q=severity%3AHIGH&suppression=only');
    expect(listQuery(view)).toEqual({
      sort: 'created_at',
      order: 'desc',
      q: 'severity:HIGH',
      suppression: 'only',
    });
    expect(listQuery(readViewState(link))).toEqual(listQuery(view));
  });
});

describe('grouping and the selection', () => {
  it('group_by lives in the URL (rule or file only)', () => {
    const view = readViewState(new URLSearchParams('severity=HIGH&group_by=rule'));
    expect(view.groupBy).toBe('rule');
    expect(writeViewState(view).toString()).toBe('severity=HIGH&group_by=rule');
    expect(readViewState(new URLSearchParams('group_by=project')).groupBy).toBeUndefined();
  });

  it('a group and a report are filters the list sends', () => {
    const view = readViewState(
      new URLSearchParams('rule_id=js%2Fsql-injection&last_report_id=r1&sort=severity'),
    );
    expect(listQuery(view)).toMatchObject({ rule_id: 'js/sql-injection', last_report_id: 'r1' });
    expect(selectionQuery(view)).toEqual({ rule_id: 'js/sql-injection', last_report_id: 'r1' });
  });
});
