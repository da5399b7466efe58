/** Opens the sealed secret settings of a channel installation or a project's channel config. */
export interface MailSecretOpener {
  /** The sealed values; unreadable or null reads as none set. */
  open(sealed: string | null): Record<string, string>;
}

/** Injection token of the MailSecretOpener (the plugins module's PluginSecretBox). */
export const MAIL_SECRETS = Symbol('MAIL_SECRETS');
