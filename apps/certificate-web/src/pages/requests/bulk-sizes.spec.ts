import { bulkSizes, CHUNK_SIZE, SELECT_PAGE_SIZE } from './bulk-sizes';

describe('bulkSizes', () => {
  const stored = new Map<string, string>();
  beforeAll(() => {
    Object.defineProperty(globalThis, 'localStorage', {
      configurable: true,
      value: { getItem: (key: string) => stored.get(key) ?? null },
    });
  });
  afterAll(() => {
    Reflect.deleteProperty(globalThis, 'localStorage');
  });
  beforeEach(() => stored.clear());

  it('is the list route maximum and chunks of 500 when nothing is stored', () => {
    expect(bulkSizes()).toEqual({ page: SELECT_PAGE_SIZE, chunk: CHUNK_SIZE });
    expect(SELECT_PAGE_SIZE).toBe(500);
  });

  it('takes the sizes the tests store', () => {
    stored.set('certificate-web.bulk-sizes', '{"page":50,"chunk":25}');
    expect(bulkSizes()).toEqual({ page: 50, chunk: 25 });
  });

  it.each(['{"page":0,"chunk":501}', '{"page":"50","chunk":2.5}', 'not json', '[]'])(
    'ignores %s',
    (value) => {
      stored.set('certificate-web.bulk-sizes', value);
      expect(bulkSizes()).toEqual({ page: 500, chunk: 500 });
    },
  );
});
