/** The setting as the routes show it: never the password, only whether one is stored. */
export interface IdentityDirectoryView {
  configured: boolean;
  enabled: boolean;
  url: string;
  bindDn: string;
  hasBindPassword: boolean;
  baseDn: string;
  upnAttribute: string;
  sidAttribute: string;
  timeoutMs: number;
  caPem: string | null;
  updatedAt: Date | null;
  updatedBy: string | null;
}
