import type { Capability } from './access';
import type { MessageKey } from './i18n/en';

/**
 * The main navigation, one entry per screen, with the capability it needs (access.ts): an entry
 * the person may not use is not shown. A new screen adds an entry here and a route in App.tsx
 * (docs/certificate-web/README.md, "Adding a screen").
 */
export interface NavEntry {
  path: string;
  label: MessageKey;
  needs: Capability;
}

export const NAVIGATION: NavEntry[] = [
  { path: '/dashboard', label: 'nav.dashboard', needs: 'read' },
  { path: '/requests', label: 'nav.requests', needs: 'read' },
  { path: '/devices', label: 'nav.devices', needs: 'read' },
  { path: '/certificates', label: 'nav.certificates', needs: 'read' },
  { path: '/audit', label: 'nav.audit', needs: 'read' },
  { path: '/license', label: 'nav.license', needs: 'read' },
  { path: '/settings', label: 'nav.settings', needs: 'read' },
  { path: '/access', label: 'nav.access', needs: 'admin' },
  { path: '/ssh', label: 'nav.ssh', needs: 'read' },
  { path: '/kubernetes', label: 'nav.kubernetes', needs: 'admin' },
  { path: '/networks', label: 'nav.networks', needs: 'read' },
  { path: '/webhooks', label: 'nav.webhooks', needs: 'admin' },
  { path: '/issuers', label: 'nav.issuers', needs: 'admin' },
  { path: '/versions', label: 'nav.versions', needs: 'read' },
];
