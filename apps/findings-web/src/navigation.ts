import type { MessageKey } from './i18n/en';

/**
 * The main navigation, one entry per screen. Later screens (suppression rules, merge,
 * roll-ups, scope, tickets) add an entry here and a route in App.tsx; nothing else moves.
 */
export interface NavEntry {
  path: string;
  label: MessageKey;
}

export const NAVIGATION: NavEntry[] = [
  { path: '/findings', label: 'nav.findings' },
  { path: '/rollup', label: 'nav.rollup' },
  { path: '/projects', label: 'nav.projects' },
  { path: '/scope', label: 'nav.scope' },
  { path: '/suppression', label: 'nav.suppression' },
  { path: '/jobs', label: 'nav.jobs' },
  { path: '/deadlines', label: 'nav.deadlines' },
  { path: '/dashboards', label: 'nav.dashboards' },
  { path: '/plugins', label: 'nav.plugins' },
  { path: '/callback-keys', label: 'nav.callbackKeys' },
];
