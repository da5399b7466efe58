/** The audit log's texts (spread into src/i18n/en.ts and ru.ts). */
export const auditEn = {
  'nav.audit': 'Audit log',
  'audit.title': 'Audit log',
  'audit.filters': 'Audit filters',
  'audit.action': 'Action',
  'audit.actor': 'Actor',
  'audit.since': 'From',
  'audit.until': 'To (inclusive)',
  'audit.at': 'Time',
  'audit.target': 'Target',
  'audit.details': 'Details',
  'audit.total': '{shown} of {total} records',
  'audit.exportCsv': 'Export CSV',
  'audit.caption': 'Administrative actions, newest first',
} as const;

export const auditRu: Record<keyof typeof auditEn, string> = {
  'nav.audit': 'Журнал аудита',
  'audit.title': 'Журнал аудита',
  'audit.filters': 'Фильтры журнала аудита',
  'audit.action': 'Действие',
  'audit.actor': 'Кто',
  'audit.since': 'С',
  'audit.until': 'По (включительно)',
  'audit.at': 'Время',
  'audit.target': 'Объект',
  'audit.details': 'Подробности',
  'audit.total': '{shown} из {total} записей',
  'audit.exportCsv': 'Экспорт CSV',
  'audit.caption': 'Административные действия, новые сверху',
};
