import { openSecrets, sealSecrets, secretFlags } from './profile-secrets';

const key = Buffer.alloc(32, 0x24);

describe('issuer profile secrets (AES-256-GCM envelope under CERTSVC_SCEP_ENC_KEY)', () => {
  it('round-trips; the envelope holds no clear text', () => {
    const envelope = sealSecrets({ password: 'hunter2-secret' }, key, 'wifi');
    expect(envelope).toMatch(/^v1:/);
    expect(envelope).not.toContain('hunter2');
    expect(Buffer.from(envelope.split(':')[3], 'base64url').toString()).not.toContain('hunter2');
    expect(openSecrets(envelope, key, 'wifi')).toEqual({ password: 'hunter2-secret' });
  });

  it('cannot be opened with another key, for another purpose, tampered, or without a key', () => {
    const envelope = sealSecrets({ password: 'p' }, key, 'wifi');
    expect(openSecrets(envelope, Buffer.alloc(32, 1), 'wifi')).toBeUndefined();
    expect(openSecrets(envelope, key, 'vpn')).toBeUndefined();
    const parts = envelope.split(':');
    const body = Buffer.from(parts[3], 'base64url');
    body[0] ^= 1;
    parts[3] = body.toString('base64url');
    expect(openSecrets(parts.join(':'), key, 'wifi')).toBeUndefined();
    expect(openSecrets(envelope, undefined, 'wifi')).toBeUndefined();
  });

  it('reports which secrets are stored, never their values', () => {
    expect(secretFlags({ client_key_pem: 'k' })).toEqual({
      password: false,
      client_key_pem: true,
      challenge_password: false,
      requester_key_pem: false,
    });
  });
});
