import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  CERTSVC_ERROR_MESSAGES,
  CERTSVC_ERROR_MESSAGES_BY_SOURCE,
  certsvcErrorMessage,
  type CataloguedCode,
  type ErrorSource,
} from './error-messages';
import { CERTSVC_ERROR_STATUSES } from './error-status';

const MODULES = join(__dirname, '../../modules');

/** Every `*.errors.ts` under src/modules, with its text. */
function moduleErrorFiles(dir = MODULES): { path: string; text: string }[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return moduleErrorFiles(path);
    return entry.name.endsWith('.errors.ts') ? [{ path, text: readFileSync(path, 'utf8') }] : [];
  });
}

describe('error catalogue (one per service, in src/app/errors)', () => {
  it('has a status and a message for every catalogued code', () => {
    for (const [code, message] of Object.entries(CERTSVC_ERROR_MESSAGES)) {
      expect(CERTSVC_ERROR_STATUSES).toHaveProperty(code);
      expect(message.trim().length).toBeGreaterThan(0);
    }
  });

  it("takes a module's own text where it has one, the catalogue's otherwise", () => {
    const sources = Object.entries(CERTSVC_ERROR_MESSAGES_BY_SOURCE) as [
      ErrorSource,
      Partial<Record<CataloguedCode, string>>,
    ][];
    for (const [source, texts] of sources) {
      for (const [code, text] of Object.entries(texts) as [CataloguedCode, string][]) {
        expect(text).not.toBe(CERTSVC_ERROR_MESSAGES[code]);
        expect(certsvcErrorMessage(code, source)).toBe(text);
        expect(certsvcErrorMessage(code)).toBe(CERTSVC_ERROR_MESSAGES[code]);
      }
    }
    expect(certsvcErrorMessage('rate_limited', 'auth')).toBe('too many attempts; try again later');
    expect(certsvcErrorMessage('rate_limited', 'approval')).toBe(
      'too many requests; try again later',
    );
  });

  it('leaves no message text in a module: its errors file holds the class and its codes', () => {
    const files = moduleErrorFiles();
    expect(files.length).toBeGreaterThan(10);
    for (const { path, text } of files) {
      // a `code: 'text'` entry is a message map; a module's code union has no `key:`
      expect({ path, messages: text.match(/\b[a-z][a-z0-9_]*:\s*['`]/g) }).toEqual({
        path,
        messages: null,
      });
      expect(text).toContain('certsvcErrorMessage(code');
    }
  });
});
