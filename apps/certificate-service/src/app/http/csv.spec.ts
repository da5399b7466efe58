import { csvCell, toCsv } from './csv';

describe('csv', () => {
  it('quotes separators and neutralises formulas', () => {
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('=SUM(A1)')).toBe("'=SUM(A1)");
    expect(csvCell(null)).toBe('');
    expect(csvCell(new Date('2026-01-02T03:04:05.000Z'))).toBe('2026-01-02T03:04:05.000Z');
  });

  it('writes a header and rows', () => {
    expect(toCsv(['x', 'y'], [[1, true]])).toBe('x,y\r\n1,true\r\n');
  });
});
