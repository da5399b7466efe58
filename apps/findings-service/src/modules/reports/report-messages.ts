import type { Locale } from '../../app/errors/error-messages';
import type { IgnoredValueCode, ResultWarningCode } from '@platform/report-parsing';
import type { ReportFailureCode } from './report-status';

type Catalog<C extends string> = Record<C, Record<Locale, string>>;

/**
 * The localized `failure_reason` per `failure_code`. `{name}` is replaced by the failure's
 * detail of that name; a `[...]` section is left out when a detail it names is missing (reports
 * failed before details were stored, or a failure without them).
 */
export const REPORT_FAILURE_MESSAGES: Catalog<ReportFailureCode> = {
  report_malformed: {
    en: 'the report is not valid JSON[ (first error at byte {offset})]',
    ru: 'отчёт не является корректным JSON[ (первая ошибка в байте {offset})]',
  },
  report_nesting_too_deep: {
    en: 'the report nests arrays and objects too deeply[ (more than {limit} levels at byte {offset})]',
    ru: 'в отчёте слишком глубокая вложенность массивов и объектов[ (более {limit} уровней в байте {offset})]',
  },
  report_unsupported: {
    en: 'the report is neither a SARIF 2.x log nor a SonarQube issues export',
    ru: 'отчёт не является ни журналом SARIF 2.x, ни выгрузкой замечаний SonarQube',
  },
  report_version_unsupported: {
    en: 'the SARIF version of the report[ ({version})] is not supported: only SARIF 2.1.0 is read',
    ru: 'версия SARIF отчёта[ ({version})] не поддерживается: читается только SARIF 2.1.0',
  },
  sarif_version_unsupported: {
    en: 'SARIF[ {version}] is not supported: only SARIF 2.1.0 is read (convert the log to 2.1.0, e.g. with the SARIF multitool)',
    ru: 'SARIF[ {version}] не поддерживается: читается только SARIF 2.1.0 (преобразуйте журнал в 2.1.0, например SARIF multitool)',
  },
  report_structure_invalid: {
    en: 'the structure of the report is invalid[: {path} has the wrong JSON type]',
    ru: 'структура отчёта некорректна[: у {path} неверный тип JSON]',
  },
  report_encoding_unsupported: {
    en: 'the report is not UTF-8 encoded (it starts with a UTF-16 or UTF-32 byte order mark)',
    ru: 'отчёт не в кодировке UTF-8 (начинается с метки порядка байтов UTF-16 или UTF-32)',
  },
  report_archive_refused: {
    en: 'archives are not accepted as reports',
    ru: 'архивы не принимаются в качестве отчётов',
  },
  report_format_unknown: {
    en: 'the report format could not be detected: upload a SARIF 2.x log or a SonarQube issues export, or set `format`',
    ru: 'не удалось определить формат отчёта: загрузите журнал SARIF 2.x или выгрузку замечаний SonarQube либо укажите `format`',
  },
  report_file_missing: {
    en: 'the stored report file is missing',
    ru: 'сохранённый файл отчёта отсутствует',
  },
  report_too_complex: {
    en: 'parsing the report needs more memory than one report may use',
    ru: 'для разбора отчёта нужно больше памяти, чем отведено одному отчёту',
  },
  cancelled: {
    en: 'ingestion was cancelled',
    ru: 'обработка отчёта отменена',
  },
  database_unavailable: {
    en: 'the database was unavailable on every attempt; retry the job later',
    ru: 'база данных была недоступна при каждой попытке; повторите задание позже',
  },
  storage_unavailable: {
    en: 'the stored report could not be read on any attempt; retry the job later',
    ru: 'сохранённый отчёт не удалось прочитать ни при одной попытке; повторите задание позже',
  },
  internal_error: {
    en: 'internal error[ (error id {error_id})]',
    ru: 'внутренняя ошибка[ (идентификатор ошибки {error_id})]',
  },
};

/**
 * The localized message of each `warnings[].code` of a skipped result (`result_stored: false`).
 * `result_level_invalid`, `result_kind_invalid`, `result_baseline_state_invalid`,
 * `result_message_invalid` and `result_properties_invalid` are no longer raised (those values
 * are ignored now, IGNORED_VALUE_MESSAGES); reports ingested before still show them.
 */
export const RESULT_WARNING_MESSAGES: Catalog<ResultWarningCode> = {
  result_not_object: {
    en: 'results that are not JSON objects were skipped',
    ru: 'пропущены результаты, не являющиеся объектами JSON',
  },
  result_level_invalid: {
    en: 'results whose level is not one of none, note, warning, error were skipped',
    ru: 'пропущены результаты с уровнем (level) вне значений none, note, warning, error',
  },
  result_kind_invalid: {
    en: 'results whose kind is not a SARIF result kind were skipped',
    ru: 'пропущены результаты с видом (kind) вне значений SARIF',
  },
  result_baseline_state_invalid: {
    en: 'results whose baselineState is not one of new, unchanged, updated, absent were skipped',
    ru: 'пропущены результаты с baselineState вне значений new, unchanged, updated, absent',
  },
  result_rule_invalid: {
    en: 'results whose ruleId, ruleIndex or rule has the wrong type were skipped',
    ru: 'пропущены результаты с ruleId, ruleIndex или rule неверного типа',
  },
  result_message_invalid: {
    en: 'results whose message has the wrong type were skipped',
    ru: 'пропущены результаты с сообщением неверного типа',
  },
  result_location_invalid: {
    en: 'results with a malformed location were skipped',
    ru: 'пропущены результаты с некорректным местоположением',
  },
  result_region_invalid: {
    en: 'results with a line or column that is not a positive integer up to 2147483647 were skipped',
    ru: 'пропущены результаты со строкой или столбцом, не являющимися целым числом от 1 до 2147483647',
  },
  result_network_invalid: {
    en: 'results with a port outside 1-65535 or a protocol longer than 16 characters were skipped',
    ru: 'пропущены результаты с портом вне 1-65535 или протоколом длиннее 16 символов',
  },
  result_properties_invalid: {
    en: 'results whose properties or fingerprints are not objects were skipped',
    ru: 'пропущены результаты, у которых properties или fingerprints не являются объектами',
  },
};

/**
 * The localized message of each `warnings[].code` of an ignored value (`result_stored: true`):
 * the results were stored, without the value or with it read as its equivalent.
 */
export const IGNORED_VALUE_MESSAGES: Catalog<IgnoredValueCode> = {
  result_level_ignored: {
    en: 'results with a level other than none, note, warning, error were stored without it (severity from the rule level, else warning: MEDIUM)',
    ru: 'результаты с уровнем (level) вне значений none, note, warning, error сохранены без него (важность по уровню правила, иначе warning: MEDIUM)',
  },
  result_level_mapped: {
    en: 'results with a level written in another letter case were stored with its SARIF value',
    ru: 'результаты с уровнем (level), записанным в другом регистре, сохранены с его значением SARIF',
  },
  result_kind_ignored: {
    en: 'results with a kind that is not a SARIF result kind were stored as kind fail',
    ru: 'результаты с видом (kind) вне значений SARIF сохранены с видом fail',
  },
  result_kind_mapped: {
    en: 'results with a kind written in another letter case were stored with its SARIF value',
    ru: 'результаты с видом (kind), записанным в другом регистре, сохранены с его значением SARIF',
  },
  result_baseline_state_ignored: {
    en: 'results with a baselineState other than new, unchanged, updated, absent were stored without it',
    ru: 'результаты с baselineState вне значений new, unchanged, updated, absent сохранены без него',
  },
  result_baseline_state_mapped: {
    en: 'results with the baselineState existing (SARIF drafts before 2.1.0) or another letter case were stored with the SARIF 2.1.0 value (existing: unchanged)',
    ru: 'результаты с baselineState existing (черновики SARIF до 2.1.0) или в другом регистре сохранены со значением SARIF 2.1.0 (existing: unchanged)',
  },
  result_rule_ignored: {
    en: 'results with a ruleId, ruleIndex or rule of the wrong type were stored with the rule their other members name',
    ru: 'результаты с ruleId, ruleIndex или rule неверного типа сохранены с правилом, указанным другими полями',
  },
  result_message_ignored: {
    en: 'results whose message has the wrong type were stored with the rule description instead',
    ru: 'результаты с сообщением неверного типа сохранены с описанием правила вместо него',
  },
  result_message_mapped: {
    en: 'results whose message is a plain string were stored with it as the message text',
    ru: 'результаты с сообщением в виде простой строки сохранены с ней в качестве текста сообщения',
  },
  result_severity_ignored: {
    en: 'results with an unknown severity word or malformed impacts were stored with the next known severity',
    ru: 'результаты с неизвестным значением важности или некорректными impacts сохранены со следующей известной важностью',
  },
  result_properties_ignored: {
    en: 'results whose properties are not objects were stored without them',
    ru: 'результаты, у которых properties не являются объектами, сохранены без них',
  },
  result_fingerprints_ignored: {
    en: 'results whose fingerprints or partialFingerprints are not objects were stored without them',
    ru: 'результаты, у которых fingerprints или partialFingerprints не являются объектами, сохранены без них',
  },
  result_location_detail_ignored: {
    en: 'results with a malformed location detail the finding does not need (columns, context region, uriBaseId, logical locations, webRequest) were stored without it',
    ru: 'результаты с некорректной деталью местоположения, не нужной находке (столбцы, contextRegion, uriBaseId, логические местоположения, webRequest), сохранены без неё',
  },
  result_member_ignored: {
    en: 'results with a member of the wrong type (suppressions, taxa, status, tags, ...) were stored without it',
    ru: 'результаты с полем неверного типа (suppressions, taxa, status, tags, ...) сохранены без него',
  },
  result_member_unknown: {
    en: 'results with members the format does not define were stored without them',
    ru: 'результаты с полями, которых нет в формате, сохранены без них',
  },
};

/** Fills `{name}` placeholders; drops a `[...]` section that names a missing detail. */
export function renderReportMessage(
  template: string,
  details: Record<string, unknown> | null | undefined,
): string {
  const value = (name: string): string | undefined => {
    const v = details?.[name];
    return typeof v === 'string' || typeof v === 'number' ? String(v) : undefined;
  };
  const fill = (text: string): string | undefined => {
    let complete = true;
    const out = text.replace(/\{(\w+)\}/g, (_whole, name: string) => {
      const v = value(name);
      if (v === undefined) complete = false;
      return v ?? '';
    });
    return complete ? out : undefined;
  };
  return template
    .replace(/\[([^\]]*)\]/g, (_whole, section: string) => fill(section) ?? '')
    .replace(/\{(\w+)\}/g, (_whole, name: string) => value(name) ?? '');
}
