import { negotiateLocale } from './accept-language';
import { ERROR_CODES, ERROR_STATUS } from './error-codes';
import { ERROR_MESSAGES, LOCALES } from './error-messages';

describe('error catalog', () => {
  it('has an English and a Russian message for every code', () => {
    for (const code of ERROR_CODES) {
      for (const locale of LOCALES) expect(ERROR_MESSAGES[code][locale].length).toBeGreaterThan(0);
      expect(ERROR_MESSAGES[code].ru).not.toEqual(ERROR_MESSAGES[code].en);
    }
    expect(Object.keys(ERROR_MESSAGES).sort()).toEqual([...ERROR_CODES].sort());
  });

  it('maps every code to an HTTP error status', () => {
    for (const code of ERROR_CODES) {
      expect(ERROR_STATUS[code]).toBeGreaterThanOrEqual(400);
      expect(ERROR_STATUS[code]).toBeLessThan(600);
    }
  });
});

describe('negotiateLocale', () => {
  it.each([
    [undefined, 'en'],
    ['', 'en'],
    ['ru', 'ru'],
    ['ru-RU', 'ru'],
    ['RU', 'ru'],
    ['de, ru;q=0.5', 'ru'],
    ['en;q=0.3, ru;q=0.7', 'ru'],
    ['ru;q=0.7, en;q=0.8', 'en'],
    ['ru;q=0, en;q=0.1', 'en'],
    ['fr, de', 'en'],
    ['*', 'en'],
    ['ru;q=abc', 'en'],
  ])('%p -> %p', (header, expected) => {
    expect(negotiateLocale(header)).toBe(expected);
  });
});
