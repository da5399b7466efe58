import {
  allowedHosts,
  isMailbox,
  parseRecipients,
  projectMailProblems,
  projectServerRefusal,
  readServer,
} from './mail-settings';
import { messageIdFor, scrubSecrets } from './plugin-mail.port';

describe('mail settings', () => {
  it('parses 1-50 recipients separated by commas or newlines, lower-cased and deduplicated', () => {
    expect(parseRecipients('A@Example.org,\n b@example.org, a@example.org')).toEqual({
      ok: true,
      list: ['a@example.org', 'b@example.org'],
    });
    expect(parseRecipients('')).toMatchObject({ ok: false });
    expect(parseRecipients('x@example.org, "Evil" <e@example.org>')).toMatchObject({ ok: false });
    expect(parseRecipients('a@example.org\r\nBcc: v@example.org')).toMatchObject({ ok: false });
    const many = Array.from({ length: 51 }, (_, i) => `u${i}@example.org`).join(',');
    expect(parseRecipients(many)).toEqual({ ok: false, problem: 'at most 50 recipients' });
    expect(isMailbox('no-domain@localhost')).toBe(false);
  });

  it('allows a project server only with allow_project_smtp, and only a listed host when the list is set', () => {
    expect(projectServerRefusal({}, 'mail.example')).toMatch(/allow_project_smtp is false/);
    expect(projectServerRefusal({ allow_project_smtp: true }, 'mail.example')).toBeUndefined();
    const listed = { allow_project_smtp: true, smtp_allowed_hosts: 'Mail.Example., relay.example' };
    expect(allowedHosts(listed)).toEqual(['mail.example', 'relay.example']);
    expect(projectServerRefusal(listed, 'MAIL.example')).toBeUndefined();
    expect(projectServerRefusal(listed, 'mail.example.evil')).toMatch(/smtp_allowed_hosts/);
  });

  it('reads a server with the default port of its TLS mode and refuses unknown modes', () => {
    const base = { smtp_host: 'Mail.Example', smtp_from: 'f@example.org' };
    expect(readServer(base, { smtp_password: 'pw' }, '')).toEqual({
      ok: true,
      server: {
        host: 'mail.example',
        port: 587,
        tlsMode: 'starttls',
        username: undefined,
        password: 'pw',
        from: 'f@example.org',
      },
    });
    expect(readServer({ ...base, smtp_tls_mode: 'tls' }, {}, '')).toMatchObject({
      server: { port: 465 },
    });
    expect(readServer({ ...base, smtp_tls_mode: 'none' }, {}, '')).toMatchObject({
      server: { port: 25 },
    });
    expect(readServer({ ...base, smtp_tls_mode: 'ssl' }, {}, '')).toMatchObject({
      ok: false,
      field: 'smtp_tls_mode',
    });
    expect(readServer({}, {}, '')).toEqual({ ok: true, server: undefined });
    expect(
      projectMailProblems({}, { project_smtp_host: 'm.example', project_smtp_from: 'a@b.example' }),
    ).toEqual([
      { field: 'project_smtp_host', problem: expect.stringMatching(/allow_project_smtp/) },
    ]);
  });

  it('derives a stable Message-ID per delivery and scrubs every secret value', () => {
    const id = messageIdFor('0b0c8d4e-1111-4111-8111-111111111111', 'f@mail.example');
    expect(id).toMatch(/^<[0-9a-f]{32}@mail\.example>$/);
    expect(messageIdFor('0b0c8d4e-1111-4111-8111-111111111111', 'x@mail.example')).toBe(id);
    expect(messageIdFor('0b0c8d4e-2222-4111-8111-111111111111', 'f@mail.example')).not.toBe(id);
    expect(scrubSecrets('token abcd-secret and abcd', ['abcd', 'abcd-secret', 'xy'])).toBe(
      'token [redacted] and [redacted]',
    );
  });
});
