export const REDACTED = '[redacted]';

/** Request and response headers whose values never reach a log line. */
export const SECRET_HEADER_NAMES = [
  'authorization',
  'proxy-authorization',
  'cookie',
  'set-cookie',
  'x-api-key',
  'x-agent-secret',
] as const;

/**
 * Field names whose values are replaced by `[redacted]` at any depth of a log line. Names are
 * compared after folding case, `-` and camelCase to snake_case (`keyHash`, `Set-Cookie`), and a
 * name also matches when one of these words is part of it (`bot_token`, `ca_key_enc_key`).
 */
export const SECRET_FIELD_WORDS = [
  'password',
  'passwd',
  'passphrase',
  'secret',
  'token',
  'tokens',
  'api_key',
  'apikey',
  'key_hash',
  'private_key',
  'enc_key',
  'signing_key',
  'credential',
  'credentials',
  'authorization',
  'cookie',
  'cookies',
] as const;

/** Whole field names that are secret only as a whole: SQL bound parameters. */
const SECRET_FIELD_NAMES: ReadonlySet<string> = new Set(['parameters']);

const SECRET_WORD_PATTERN = new RegExp(`(^|_)(${SECRET_FIELD_WORDS.join('|')})(_|$)`);

function foldName(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .toLowerCase()
    .replace(/-/g, '_');
}

/** Names already decided (every log line asks again for the same few dozen), bounded. */
const decidedNames = new Map<string, boolean>();
const DECIDED_NAMES_MAX = 2048;
const DECIDED_NAME_LENGTH_MAX = 64;

export function isSecretField(name: string): boolean {
  const known = decidedNames.get(name);
  if (known !== undefined) return known;
  const folded = foldName(name);
  const secret = SECRET_FIELD_NAMES.has(folded) || SECRET_WORD_PATTERN.test(folded);
  if (name.length <= DECIDED_NAME_LENGTH_MAX) {
    if (decidedNames.size >= DECIDED_NAMES_MAX) decidedNames.clear();
    decidedNames.set(name, secret);
  }
  return secret;
}

/**
 * Query parameters of a URL whose values are secrets: the authorization response's `code` and
 * `state` (a single sign-on callback), PKCE and token parameters, and names holding a secret
 * word (`api_token`, `client_secret`, ...).
 */
export const SECRET_QUERY_PARAMETERS = ['code', 'state', 'code_verifier', 'session_state'] as const;

const SECRET_QUERY_PATTERN = new RegExp(
  `([?&](?:${SECRET_QUERY_PARAMETERS.join('|')}|[\\w.-]*(?:token|secret|password|passwd|api_?key)[\\w.-]*)=)[^&#\\s"'\`]+`,
  'gi',
);

/**
 * Secret-shaped substrings of free text (messages, stacks), what replaces them, and the
 * needles: text each match contains (any case), so text holding none of any pattern's needles
 * is returned as it is without running the patterns (most strings of a log line: ids, paths,
 * header values). A new pattern names its own needles.
 */
export const SECRET_TEXT_PATTERNS: readonly {
  pattern: RegExp;
  replacement: string;
  needles: readonly string[];
}[] = [
  { pattern: SECRET_QUERY_PATTERN, replacement: `$1${REDACTED}`, needles: ['='] },
  {
    pattern: /-----BEGIN ([A-Z0-9 ]*)PRIVATE KEY-----[\s\S]*?(?:-----END \1PRIVATE KEY-----|$)/g,
    replacement: REDACTED,
    needles: ['-----BEGIN '],
  },
  { pattern: /\bscrypt\$[^\s"'`,;)]+/g, replacement: REDACTED, needles: ['scrypt$'] },
  {
    pattern: /\b(Bearer|Basic|ApiKey)\s+[A-Za-z0-9._~+/=-]+/gi,
    replacement: `$1 ${REDACTED}`,
    needles: ['bearer', 'basic', 'apikey'],
  },
  {
    pattern: /\beyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]*/g,
    replacement: REDACTED,
    needles: ['eyJ'],
  },
  {
    pattern: /\b(sa_[0-9a-f]{8}_|wca_)[A-Za-z0-9_-]{16,}/g,
    replacement: `$1${REDACTED}`,
    needles: ['sa_', 'wca_'],
  },
  {
    pattern: /\b([a-z][a-z0-9+.-]*:\/\/[^\s:/@]*:)[^\s@/]+@/gi,
    replacement: `$1${REDACTED}@`,
    needles: ['://'],
  },
  // A webhook path's last segment is its secret: `/webhooks/<kind>/<owner id>/<secret>`.
  {
    pattern: /(\/webhooks\/[\w-]+\/[\w-]+\/)[^/\s?#"'`]+/g,
    replacement: `$1${REDACTED}`,
    needles: ['/webhooks/'],
  },
];

/** Any pattern's needle, any case: one scan instead of a scan per pattern. */
const SECRET_TEXT_NEEDLES = new RegExp(
  SECRET_TEXT_PATTERNS.flatMap(({ needles }) => needles)
    .map((needle) => needle.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&'))
    .join('|'),
  'i',
);

/**
 * Replaces password hashes, bearer credentials, JWTs, API keys, private keys, URL passwords and
 * secret query parameters (`?code=...&state=...` of a single sign-on callback).
 */
export function scrubSecretText(text: string): string {
  if (!SECRET_TEXT_NEEDLES.test(text)) return text;
  let result = text;
  for (const { pattern, replacement } of SECRET_TEXT_PATTERNS) {
    result = result.replace(pattern, replacement);
  }
  return result;
}

/** Whether a query parameter's value is a secret (`code`, `state`, `*token*`, ...). */
export function isSecretQueryParameter(name: string): boolean {
  return (
    (SECRET_QUERY_PARAMETERS as readonly string[]).includes(name.toLowerCase()) ||
    isSecretField(name)
  );
}
