import { chmod, mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { CliError, EXIT } from '../errors';

export type Service = 'findings' | 'certificates';

/** A person's session with one service, as `platform login` stored it. */
export interface StoredSession {
  url: string;
  email: string;
  access_token: string;
  /** findings: the findsvc_refresh cookie value; certificates: the rt_ refresh token. */
  refresh_token?: string;
  expires_at?: string;
}

export type Credentials = Partial<Record<Service, StoredSession>>;

export const CLI_NAME = 'platform';

/** `$XDG_CONFIG_HOME/platform` (default `~/.config/platform`). */
export function configDir(env: NodeJS.ProcessEnv): string {
  const base = env.XDG_CONFIG_HOME?.trim() || join(homedir(), '.config');
  return join(base, CLI_NAME);
}

/** The credentials file: a JSON object per service, mode 0600 in a 0700 directory. */
export class CredentialStore {
  readonly dir: string;
  readonly file: string;

  constructor(env: NodeJS.ProcessEnv) {
    this.dir = configDir(env);
    this.file = join(this.dir, 'credentials.json');
  }

  async read(): Promise<Credentials> {
    let text: string;
    try {
      text = await readFile(this.file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {};
      throw new CliError(EXIT.usage, `cannot read ${this.file}: ${(error as Error).message}`);
    }
    try {
      const parsed = JSON.parse(text) as unknown;
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) return parsed;
    } catch {
      // reported below
    }
    throw new CliError(
      EXIT.auth,
      `${this.file} is not a credentials file this CLI wrote; delete it and sign in again`,
    );
  }

  async session(service: Service): Promise<StoredSession | undefined> {
    return (await this.read())[service];
  }

  async save(service: Service, session: StoredSession | undefined): Promise<void> {
    const all = await this.read();
    if (session) all[service] = session;
    else delete all[service];
    // Written beside the file with 0600 from the start, then renamed over it: never a moment
    // where the tokens sit in a file others can read, never half a file.
    const tmp = `${this.file}.${process.pid}.tmp`;
    try {
      await mkdir(this.dir, { recursive: true, mode: 0o700 });
      // mkdir keeps the mode of a directory that already exists: tighten it.
      await chmod(this.dir, 0o700);
      await writeFile(tmp, `${JSON.stringify(all, null, 2)}\n`, { mode: 0o600 });
      await chmod(tmp, 0o600);
      await rename(tmp, this.file);
    } catch (error) {
      await rm(tmp, { force: true });
      throw new CliError(EXIT.usage, `cannot write ${this.file}: ${(error as Error).message}`);
    }
  }
}
