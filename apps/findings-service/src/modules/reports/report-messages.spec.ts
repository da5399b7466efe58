import { LOCALES } from '../../app/errors/error-messages';
import { IGNORED_VALUE_CODES, RESULT_WARNING_CODES } from '@platform/report-parsing';
import {
  IGNORED_VALUE_MESSAGES,
  REPORT_FAILURE_MESSAGES,
  renderReportMessage,
  RESULT_WARNING_MESSAGES,
} from './report-messages';
import { REPORT_FAILURE_CODES } from './report-status';
import { ReportDto } from './dto/report.dto';
import { ReportEntity } from './report.entity';

function report(over: Partial<ReportEntity>): ReportEntity {
  return Object.assign(new ReportEntity(), {
    id: 'r',
    createdAt: new Date(0),
    startedAt: null,
    finishedAt: null,
    failureCode: null,
    failureDetails: null,
    warnings: {},
    ...over,
  });
}

describe('report failure and warning messages', () => {
  it('has an English and a distinct Russian text for every failure and warning code', () => {
    for (const catalog of [
      REPORT_FAILURE_MESSAGES,
      RESULT_WARNING_MESSAGES,
      IGNORED_VALUE_MESSAGES,
    ]) {
      for (const texts of Object.values(catalog)) {
        for (const locale of LOCALES) expect(texts[locale].length).toBeGreaterThan(0);
        expect(texts.ru).not.toBe(texts.en);
      }
    }
    expect(Object.keys(REPORT_FAILURE_MESSAGES).sort()).toEqual([...REPORT_FAILURE_CODES].sort());
    expect(Object.keys(RESULT_WARNING_MESSAGES).sort()).toEqual([...RESULT_WARNING_CODES].sort());
    expect(Object.keys(IGNORED_VALUE_MESSAGES).sort()).toEqual([...IGNORED_VALUE_CODES].sort());
  });

  it('fills details and leaves out a section whose detail is missing', () => {
    const template = REPORT_FAILURE_MESSAGES.report_malformed.en;
    expect(renderReportMessage(template, { offset: 1234 })).toBe(
      'the report is not valid JSON (first error at byte 1234)',
    );
    expect(renderReportMessage(template, null)).toBe('the report is not valid JSON');
    expect(renderReportMessage('a[ {x} and {y}] b {z}', { x: 1 })).toBe('a b ');
    expect(
      renderReportMessage(REPORT_FAILURE_MESSAGES.sarif_version_unsupported.en, {
        version: '2.0.0-csd.2.beta.2019-01-24',
      }),
    ).toMatch(
      /^SARIF 2\.0\.0-csd\.2\.beta\.2019-01-24 is not supported: only SARIF 2\.1\.0 is read/,
    );
  });

  it('gives the API a localized failure_reason and warnings, never stored text', () => {
    const failed = report({
      status: 'failed',
      failureCode: 'report_structure_invalid',
      failureDetails: { path: 'runs[0].results' },
      warnings: {
        result_baseline_state_mapped: 3,
        result_region_invalid: 2,
        result_level_invalid: 1,
      },
    });
    expect(ReportDto.from(failed, 'ru')).toMatchObject({
      failure_code: 'report_structure_invalid',
      failure_reason: 'структура отчёта некорректна: у runs[0].results неверный тип JSON',
      warnings: [
        {
          code: 'result_level_invalid',
          count: 1,
          message: RESULT_WARNING_MESSAGES.result_level_invalid.ru,
          result_stored: false,
        },
        {
          code: 'result_region_invalid',
          count: 2,
          message: RESULT_WARNING_MESSAGES.result_region_invalid.ru,
          result_stored: false,
        },
        {
          code: 'result_baseline_state_mapped',
          count: 3,
          message: IGNORED_VALUE_MESSAGES.result_baseline_state_mapped.ru,
          result_stored: true,
        },
      ],
    });
    const legacy = report({ status: 'failed', failureCode: 'something_old' as never });
    expect(ReportDto.from(legacy).failure_reason).toBe('internal error');
    expect(ReportDto.from(report({ status: 'completed' }))).toMatchObject({
      failure_code: null,
      failure_reason: null,
      warnings: [],
    });
  });
});
