import { LOCALES } from './error-messages';
import {
  FIELD_PROBLEM_CODES,
  FIELD_PROBLEM_MESSAGES,
  localizedFields,
  problemText,
  readProblem,
} from './field-problems';

describe('field problems', () => {
  it('has a reason in every language for every code', () => {
    for (const code of FIELD_PROBLEM_CODES) {
      for (const locale of LOCALES) {
        expect(FIELD_PROBLEM_MESSAGES[code][locale]?.length).toBeGreaterThan(0);
      }
    }
  });

  it.each([
    [
      'comment must be shorter than or equal to 200 characters',
      'max_length',
      '≤ 200 characters',
      '≤ 200 символов',
    ],
    [
      'q must be longer than or equal to 2 characters',
      'min_length',
      '≥ 2 characters',
      '≥ 2 символов',
    ],
    [
      'status must be one of the following values: new, confirmed',
      'one_of',
      'one of: new, confirmed',
      'одно из: new, confirmed',
    ],
    ['assignee_id must be a UUID', 'uuid', 'an id (UUID)', 'идентификатор (UUID)'],
    [
      'limit must be a whole number from 1 to 500',
      'integer_range',
      'a whole number from 1 to 500',
      'целое число от 1 до 500',
    ],
    ['property severity should not exist', 'unknown_field', 'unknown field', 'неизвестное поле'],
    ['status must not be null', 'not_null', 'must not be null', 'не может быть null'],
    ['email must be an email', 'email', 'an e-mail address', 'адрес электронной почты'],
    ['body must not be empty', 'not_blank', 'must not be empty', 'не может быть пустым'],
    [
      'must not contain U+0000 or unpaired UTF-16 surrogates',
      'storable_text',
      'no NUL characters or unpaired surrogates',
      'без символов NUL и непарных суррогатов',
    ],
    [
      '"a b": letters, digits and . _ : / = + @ - only',
      'tag_characters',
      '"a b": letters, digits and . _ : / = + @ - only',
      '"a b": только буквы, цифры и . _ : / = + @ -',
    ],
    [
      'huge, tiny: expected CRITICAL|HIGH|MEDIUM|LOW|INFO',
      'list_values',
      'not allowed here: huge, tiny',
      'здесь недопустимо: huge, tiny',
    ],
    ['at most 100 values', 'list_too_long', 'at most 100 values', 'не более 100 значений'],
    [
      'created_from must be a valid ISO 8601 date string',
      'date_time',
      expect.stringMatching(/^a date and time/),
      expect.stringMatching(/^дата и время/),
    ],
  ])('reads "%s" as %s', (text, code, en, ru) => {
    const read = readProblem(text);
    expect(read.code).toBe(code);
    expect(problemText(read, 'en')).toEqual(en);
    expect(problemText(read, 'ru')).toEqual(ru);
  });

  it('keeps a problem no rule reads in English, as invalid', () => {
    expect(
      localizedFields(
        [{ field: 'x', problems: ['give finding_ids or q/filters, not both'] }],
        'ru',
      ),
    ).toEqual([
      { field: 'x', problems: ['give finding_ids or q/filters, not both'], codes: ['invalid'] },
    ]);
  });
});
