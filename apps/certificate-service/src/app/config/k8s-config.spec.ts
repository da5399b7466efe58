import { ConfigError } from '@platform/config';
import { loadCertsvcConfig } from './certsvc-config';

const BASE = {
  CERTSVC_DATABASE_URL: 'postgres://x@localhost/db',
  CERTSVC_JWT_SECRET: 's'.repeat(40),
  CERTSVC_CA_KEY_ENC_KEY: '11'.repeat(32),
};

function problems(env: Record<string, string>): string {
  try {
    loadCertsvcConfig({ ...BASE, ...env });
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).problems.join('\n');
  }
  throw new Error('expected a ConfigError');
}

describe('loadCertsvcConfig - Kubernetes broker', () => {
  it('has no broker by default and asks once per window', () => {
    expect(loadCertsvcConfig(BASE).k8s).toEqual({ promptStep: 'ask_once_per_window' });
  });

  it('reads the broker URL with its certificate files and the prompt step', () => {
    const config = loadCertsvcConfig({
      ...BASE,
      CERTSVC_K8S_BROKER_URL: 'https://127.0.0.1:8443',
      CERTSVC_K8S_BROKER_TLS_CERT_FILE: '/etc/certsvc/broker.crt',
      CERTSVC_K8S_BROKER_TLS_KEY_FILE: '/etc/certsvc/broker.key',
      CERTSVC_K8S_PROMPT_STEP: 'raised',
    });
    expect(config.k8s).toEqual({
      promptStep: 'raised',
      broker: {
        host: '127.0.0.1',
        port: 8443,
        url: 'https://127.0.0.1:8443',
        tlsCertFile: '/etc/certsvc/broker.crt',
        tlsKeyFile: '/etc/certsvc/broker.key',
      },
    });
  });

  it('refuses a plain-HTTP or path URL, a URL without certificate files, an unknown step', () => {
    const files = {
      CERTSVC_K8S_BROKER_TLS_CERT_FILE: '/c',
      CERTSVC_K8S_BROKER_TLS_KEY_FILE: '/k',
    };
    expect(problems({ CERTSVC_K8S_BROKER_URL: 'http://127.0.0.1:8443', ...files })).toContain(
      'CERTSVC_K8S_BROKER_URL',
    );
    expect(problems({ CERTSVC_K8S_BROKER_URL: 'https://h:8443/x', ...files })).toContain(
      'CERTSVC_K8S_BROKER_URL',
    );
    expect(problems({ CERTSVC_K8S_BROKER_URL: 'https://h:8443' })).toContain(
      'CERTSVC_K8S_BROKER_TLS_CERT_FILE',
    );
    expect(problems({ CERTSVC_K8S_PROMPT_STEP: 'sometimes' })).toContain('CERTSVC_K8S_PROMPT_STEP');
  });
});
