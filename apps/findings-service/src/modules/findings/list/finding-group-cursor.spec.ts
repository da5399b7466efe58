import { decodeGroupCursor, encodeGroupCursor } from './finding-group-cursor';

describe('finding group cursor', () => {
  it('round-trips and is bound to its grouping', () => {
    const text = encodeGroupCursor({ by: 'rule', count: 412, key: 'js/sql-injection' });
    expect(decodeGroupCursor(text, 'rule')).toEqual({
      by: 'rule',
      count: 412,
      key: 'js/sql-injection',
    });
    expect(decodeGroupCursor(text, 'file')).toBeUndefined();
  });

  it.each([
    'not base64 json',
    Buffer.from('[]').toString('base64url'),
    Buffer.from('{"b":"rule","c":1.5,"k":"x"}').toString('base64url'),
    Buffer.from('{"b":"rule","c":0,"k":"x"}').toString('base64url'),
    Buffer.from('{"b":"rule","c":3,"k":7}').toString('base64url'),
    Buffer.from('{"b":"rule","c":3,"k":"a\\u0000"}').toString('base64url'),
  ])('refuses %s', (text) => {
    expect(decodeGroupCursor(text, 'rule')).toBeUndefined();
  });
});
