import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
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

/** Every `*.errors.ts` under src/modules, with its text. */
function moduleErrorFiles(
  dir = join(__dirname, '../../modules'),
): { path: string; text: string }[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return moduleErrorFiles(path);
    return entry.name.endsWith('.errors.ts') ? [{ path, text: readFileSync(path, 'utf8') }] : [];
  });
}

// One catalogue per service, in src/app/errors (docs/architecture.md, Errors): a module's
// errors file holds its error class and its codes, never the texts.
describe('module error files', () => {
  it('hold no message text', () => {
    const files = moduleErrorFiles();
    expect(files.length).toBeGreaterThan(10);
    for (const { path, text } of files) {
      expect({ path, messages: text.match(/\b[a-z][a-z0-9_]*:\s*['`]/g) }).toEqual({
        path,
        messages: null,
      });
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
