import type { Locale } from './error-messages';

/**
 * The reasons of `validation_failed` (docs/findings-service/errors.md, "Field problem codes"):
 * each problem the validators write (English, class-validator's or ours) is read into a stable
 * code and its bounds, and shown as a short reason in the request's language, to be put next to
 * the field as it is ("≤ 200 characters"). A problem no rule reads keeps its English text
 * (`invalid`).
 */
export const FIELD_PROBLEM_CODES = [
  'required',
  'not_null',
  'unknown_field',
  'text',
  'not_blank',
  'max_length',
  'min_length',
  'one_of',
  'uuid',
  'date_time',
  'integer_range',
  'integer',
  'min',
  'max',
  'boolean',
  'email',
  'url',
  'array',
  'object',
  'array_min',
  'array_max',
  'unique',
  'storable_text',
  'tag_characters',
  'tag_length',
  'list_values',
  'list_too_long',
  'pattern',
  'invalid',
] as const;
export type FieldProblemCode = (typeof FIELD_PROBLEM_CODES)[number];

/** Reason per code and language; `{name}` is filled from the problem's values. */
export const FIELD_PROBLEM_MESSAGES: Record<FieldProblemCode, Record<Locale, string>> = {
  required: { en: 'required', ru: 'обязательное поле' },
  not_null: { en: 'must not be null', ru: 'не может быть null' },
  unknown_field: { en: 'unknown field', ru: 'неизвестное поле' },
  text: { en: 'text', ru: 'текст' },
  not_blank: { en: 'must not be empty', ru: 'не может быть пустым' },
  max_length: { en: '≤ {max} characters', ru: '≤ {max} символов' },
  min_length: { en: '≥ {min} characters', ru: '≥ {min} символов' },
  one_of: { en: 'one of: {values}', ru: 'одно из: {values}' },
  uuid: { en: 'an id (UUID)', ru: 'идентификатор (UUID)' },
  date_time: {
    en: 'a date and time (ISO 8601, e.g. 2026-01-31T12:00:00Z)',
    ru: 'дата и время (ISO 8601, например 2026-01-31T12:00:00Z)',
  },
  integer_range: {
    en: 'a whole number from {min} to {max}',
    ru: 'целое число от {min} до {max}',
  },
  integer: { en: 'a whole number', ru: 'целое число' },
  min: { en: '≥ {min}', ru: '≥ {min}' },
  max: { en: '≤ {max}', ru: '≤ {max}' },
  boolean: { en: 'true or false', ru: 'true или false' },
  email: { en: 'an e-mail address', ru: 'адрес электронной почты' },
  url: { en: 'a URL', ru: 'URL-адрес' },
  array: { en: 'a list', ru: 'список' },
  object: { en: 'an object', ru: 'объект' },
  array_min: { en: 'at least {min} items', ru: 'не менее {min} элементов' },
  array_max: { en: 'at most {max} items', ru: 'не более {max} элементов' },
  unique: { en: 'no repeated items', ru: 'без повторяющихся элементов' },
  storable_text: {
    en: 'no NUL characters or unpaired surrogates',
    ru: 'без символов NUL и непарных суррогатов',
  },
  tag_characters: {
    en: '{value}: letters, digits and . _ : / = + @ - only',
    ru: '{value}: только буквы, цифры и . _ : / = + @ -',
  },
  tag_length: {
    en: '{value}: a tag has 1 to {max} characters',
    ru: '{value}: тег содержит от 1 до {max} символов',
  },
  list_values: { en: 'not allowed here: {values}', ru: 'здесь недопустимо: {values}' },
  list_too_long: { en: 'at most {max} values', ru: 'не более {max} значений' },
  pattern: { en: "the field's format", ru: 'формат поля' },
  invalid: { en: '{text}', ru: '{text}' },
};

/** A problem read: its code and the values its reason shows. */
export interface ReadProblem {
  code: FieldProblemCode;
  values: Record<string, string>;
}

/** English problem texts (with or without the leading field name) -> code and values. */
const RULES: readonly [RegExp, FieldProblemCode, readonly string[]][] = [
  [/^property \S+ should not exist$/, 'unknown_field', []],
  [/should not be null or undefined$/, 'required', []],
  [/must not be null$/, 'not_null', []],
  [/(should|must) not be empty$/, 'not_blank', []],
  [/must be shorter than or equal to (\d+) characters$/, 'max_length', ['max']],
  [/must be at most (\d+) characters$/, 'max_length', ['max']],
  [/must be longer than or equal to (\d+) characters$/, 'min_length', ['min']],
  [/must be one of the following values: (.*)$/, 'one_of', ['values']],
  [/must be one of (.*)$/, 'one_of', ['values']],
  [/must be a UUID$/, 'uuid', []],
  [/must be (a valid ISO 8601 date string|an ISO 8601 date-time)$/, 'date_time', []],
  [/must be a whole number from (-?\d+) to (-?\d+)$/, 'integer_range', ['min', 'max']],
  [/must be an integer number$/, 'integer', []],
  [/must not be less than (-?[\d.]+)$/, 'min', ['min']],
  [/must not be greater than (-?[\d.]+)$/, 'max', ['max']],
  [/must be a boolean( value)?$/, 'boolean', []],
  [/must be an email$/, 'email', []],
  [/must be (a URL address|an http\(s\) URL)$/, 'url', []],
  [/must be an array$/, 'array', []],
  [/must be an? (non-empty )?object$/, 'object', []],
  [/must contain at least (\d+) elements$/, 'array_min', ['min']],
  [/must contain no more than (\d+) elements$/, 'array_max', ['max']],
  [/elements must be unique$/, 'unique', []],
  [/must be a string$/, 'text', []],
  [/must not contain U\+0000 or unpaired UTF-16 surrogates$/, 'storable_text', []],
  [/^(".*"): letters, digits and \. _ : \/ = \+ @ - only$/s, 'tag_characters', ['value']],
  [/^(".*"): a tag has 1 to (\d+) characters$/s, 'tag_length', ['value', 'max']],
  [/^at most (\d+) values$/, 'list_too_long', ['max']],
  [/^(.+): (expected \S+|not a UUID|too long)$/s, 'list_values', ['values']],
  [/must match .* regular expression$/, 'pattern', []],
];

/** Reads one English problem text. */
export function readProblem(text: string): ReadProblem {
  for (const [pattern, code, names] of RULES) {
    const match = pattern.exec(text);
    if (!match) continue;
    const values: Record<string, string> = {};
    names.forEach((name, i) => {
      const value = match[i + 1] ?? '';
      values[name] = name === 'values' ? value.split(/,\s*/).join(', ') : value;
    });
    return { code, values };
  }
  return { code: 'invalid', values: { text } };
}

/** The reason of a read problem in the locale. */
export function problemText(problem: ReadProblem, locale: Locale): string {
  return FIELD_PROBLEM_MESSAGES[problem.code][locale].replace(
    /\{(\w+)\}/g,
    (whole, name: string) => problem.values[name] ?? whole,
  );
}

/** The envelope's `fields`: each problem as a localized reason, with its code beside it. */
export function localizedFields(
  fields: readonly { field: string; problems: readonly string[] }[],
  locale: Locale,
): { field: string; problems: string[]; codes: FieldProblemCode[] }[] {
  return fields.map((f) => {
    const read = f.problems.map(readProblem);
    return {
      field: f.field,
      problems: read.map((p) => problemText(p, locale)),
      codes: read.map((p) => p.code),
    };
  });
}
