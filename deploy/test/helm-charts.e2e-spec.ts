import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { IDeployment } from 'kubernetes-models/apps/v1/Deployment';
import type { INetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1/NetworkPolicy';
import type { IIngress } from 'kubernetes-models/networking.k8s.io/v1/Ingress';
import type { IService } from 'kubernetes-models/v1/Service';
import { helm, helmBinary } from './helm-binary';
import {
  configMapSecretProblems,
  deploymentProblems,
  documentation,
  environmentNames,
  hardeningProblems,
  K8sObject,
  label,
  parseManifests,
  podOwners,
  schemaProblems,
  undocumentedNames,
} from './rendered-objects';

/**
 * The Helm charts under deploy/helm, checked with the real Helm 3.17 (helm-binary.ts): lint
 * --strict and template with the default values and every ci/*.yaml values file, every
 * rendered object validated against the Kubernetes API schemas (kubernetes-models), the
 * platform's own rules asserted, and broken values files refused with a clear message.
 */
const REPO = join(__dirname, '../..');
const CHARTS = ['findings-service', 'certificate-service', 'plugin-runner', 'security-platform'];
const IMAGE_NAMES = [
  'findings-service',
  'findings-web',
  'plugin-runner',
  'certificate-service',
  'certificate-web',
];

interface Case {
  chart: string;
  values: string;
  args: string[];
}

const cases: Case[] = CHARTS.flatMap((chart) => [
  { chart, values: 'default values', args: [] },
  ...readdirSync(join(REPO, 'deploy/helm', chart, 'ci'))
    .filter((f) => f.endsWith('.yaml'))
    .sort()
    .map((f) => ({ chart, values: `ci/${f}`, args: ['-f', `deploy/helm/${chart}/ci/${f}`] })),
]);

function template(chart: string, args: string[]): K8sObject[] {
  const result = helm([
    'template',
    'rel',
    `deploy/helm/${chart}`,
    '--namespace',
    'platform',
    ...args,
  ]);
  if (result.status !== 0) throw new Error(`helm template ${chart} failed:\n${result.stderr}`);
  return parseManifests(result.stdout);
}

const isRunner = (o: K8sObject) =>
  o.metadata.labels?.['app.kubernetes.io/name'] === 'plugin-runner';
const byKind = (objects: K8sObject[], kind: string) => objects.filter((o) => o.kind === kind);

let docs = '';

beforeAll(() => {
  helmBinary();
  // The umbrella chart takes the charts beside it through file:// dependencies.
  const built = helm(['dependency', 'build', 'deploy/helm/security-platform', '--skip-refresh']);
  if (built.status !== 0) throw new Error(`helm dependency build failed:\n${built.stderr}`);
  docs = documentation(REPO);
});

describe.each(cases)('$chart with $values', ({ chart, args }) => {
  let objects: K8sObject[] = [];
  beforeAll(() => {
    objects = template(chart, args);
  });

  it('passes helm lint --strict', () => {
    const result = helm(['lint', '--strict', `deploy/helm/${chart}`, ...args]);
    expect(`${result.stdout}${result.stderr}`).toContain('0 chart(s) failed');
    expect(result.status).toBe(0);
  });

  it('renders only objects that match the Kubernetes API schemas', () => {
    expect(objects.length).toBeGreaterThan(3);
    expect(schemaProblems(objects)).toEqual([]);
  });

  it('runs every container non-root, read-only, without privileges, capabilities or token', () => {
    expect(podOwners(objects).length).toBeGreaterThan(0);
    expect(hardeningProblems(objects)).toEqual([]);
  });

  it('gives every Deployment probes and resources', () => {
    expect(deploymentProblems(objects)).toEqual([]);
  });

  it('puts no secret into a ConfigMap', () => {
    expect(configMapSecretProblems(objects)).toEqual([]);
  });

  it('names every environment variable as the documentation does', () => {
    expect(undocumentedNames(environmentNames(objects), docs)).toEqual([]);
  });

  it('uses <registry>/<name>:<tag> images of the platform', () => {
    for (const { containers } of podOwners(objects)) {
      for (const c of containers) {
        const m = /^(.+)\/([a-z-]+):([A-Za-z0-9_][A-Za-z0-9._-]*)$/.exec(c.image ?? '');
        expect(m && IMAGE_NAMES.includes(m[2])).toBeTruthy();
      }
    }
  });

  it('keeps the plugin runner inside the namespace', () => {
    for (const s of byKind(objects, 'Service').filter(isRunner)) {
      expect((s as unknown as IService).spec?.type).toBe('ClusterIP');
    }
    const runnerServices = new Set(
      byKind(objects, 'Service')
        .filter(isRunner)
        .map((s) => s.metadata.name),
    );
    for (const ingress of byKind(objects, 'Ingress') as unknown as IIngress[]) {
      const backends = (ingress.spec?.rules ?? []).flatMap((r) => r.http?.paths ?? []);
      for (const p of backends)
        expect(runnerServices.has(p.backend.service?.name ?? '')).toBe(false);
    }
    const runner = objects.find((o) => o.kind === 'Deployment' && isRunner(o));
    if (!runner) return;
    const policy = byKind(objects, 'NetworkPolicy').find(isRunner) as unknown as INetworkPolicy;
    if (!policy) return; // the minimal values switch NetworkPolicies off
    expect(policy.spec?.policyTypes).toEqual(expect.arrayContaining(['Ingress', 'Egress']));
    const grpc = policy.spec?.ingress?.[0];
    expect(grpc?.ports).toEqual([{ port: 7071, protocol: 'TCP' }]);
    for (const peer of grpc?.from ?? []) {
      expect(peer.podSelector?.matchLabels?.['app.kubernetes.io/name']).toBe('findings-service');
      expect(peer.ipBlock).toBeUndefined();
    }
  });

  it('runs the schema migrations as a pre-install/pre-upgrade hook Job', () => {
    for (const job of byKind(objects, 'Job')) {
      const hooks = job.metadata.annotations?.['helm.sh/hook']?.split(',') ?? [];
      expect(hooks).toEqual(expect.arrayContaining(['pre-install', 'pre-upgrade']));
      const [container] = podOwners([job])[0].containers;
      expect(container.command).toEqual(['node', 'migrate.js']);
    }
    const apis = objects.filter(
      (o) =>
        o.kind === 'Deployment' && o.metadata.labels?.['app.kubernetes.io/component'] === 'api',
    );
    expect(byKind(objects, 'Job')).toHaveLength(apis.filter((o) => !isRunner(o)).length);
  });
});

describe('what the values files switch on', () => {
  const deployment = (objects: K8sObject[], name: string) =>
    objects.find(
      (o) => o.kind === 'Deployment' && o.metadata.name === name,
    ) as unknown as IDeployment;

  it('HA: disruption budgets and zone spread for every role that runs several pods', () => {
    const objects = template('findings-service', [
      '-f',
      'deploy/helm/findings-service/ci/ha-values.yaml',
    ]);
    const budgets = byKind(objects, 'PodDisruptionBudget')
      .map((o) => o.metadata.name)
      .sort();
    expect(budgets).toEqual([
      'rel-findings-service-api',
      'rel-findings-service-web',
      'rel-findings-service-worker',
    ]);
    const api = deployment(objects, 'rel-findings-service-api');
    expect(api.spec?.replicas).toBe(3);
    const keys = api.spec?.template.spec?.topologySpreadConstraints?.map((t) => t.topologyKey);
    expect(keys).toEqual(['topology.kubernetes.io/zone', 'kubernetes.io/hostname']);
    const env = api.spec?.template.spec?.containers[0].env ?? [];
    expect(env).toContainEqual({
      name: 'PLUGIN_RUNNER_TOKEN',
      valueFrom: { secretKeyRef: { name: 'plugin-runner-token', key: 'token' } },
    });
    expect(api.spec?.template.spec?.containers[0].image).toBe(
      'registry.internal:5000/platform/findings-service:0.33.7',
    );
    const worker = deployment(objects, 'rel-findings-service-worker').spec?.template.spec;
    expect(worker?.volumes).toContainEqual({
      name: 'secret-file-0',
      secret: { secretName: 'smtp-ca', defaultMode: 0o440 },
    });
    expect(worker?.containers[0].volumeMounts).toContainEqual({
      name: 'secret-file-0',
      mountPath: '/etc/findings/smtp-ca',
      readOnly: true,
    });
  });

  it('ingress + autoscaling: HPAs own the replica counts, the Ingress has its class and TLS', () => {
    const objects = template('findings-service', [
      '-f',
      'deploy/helm/findings-service/ci/ingress-autoscaling-values.yaml',
    ]);
    expect(
      byKind(objects, 'HorizontalPodAutoscaler')
        .map((o) => o.metadata.name)
        .sort(),
    ).toEqual([
      'rel-findings-service-api',
      'rel-findings-service-web',
      'rel-findings-service-worker',
    ]);
    expect(deployment(objects, 'rel-findings-service-api').spec?.replicas).toBeUndefined();
    const [ingress] = byKind(objects, 'Ingress') as unknown as IIngress[];
    expect(ingress.spec?.ingressClassName).toBe('nginx');
    expect(ingress.spec?.tls).toEqual([
      { secretName: 'findings-tls', hosts: ['findings.example.com'] },
    ]);
    const paths = ingress.spec?.rules?.[0].http?.paths.map((p) => [
      p.path,
      p.backend.service?.name,
    ]);
    expect(paths).toEqual([
      ['/api', 'rel-findings-service'],
      ['/', 'rel-findings-service-web'],
    ]);
  });

  it('the broker: its own Service on 8443, the TLS pair mounted, passthrough Ingress without tls', () => {
    const objects = template('certificate-service', [
      '-f',
      'deploy/helm/certificate-service/ci/ingress-autoscaling-values.yaml',
    ]);
    const service = objects.find(
      (o) => label(o) === 'Service/rel-certificate-service-broker',
    ) as unknown as IService;
    expect(service.spec?.ports).toEqual([
      { name: 'broker', port: 8443, targetPort: 'broker', protocol: 'TCP' },
    ]);
    const api = deployment(objects, 'rel-certificate-service-api').spec?.template.spec;
    expect(api?.containers[0].env).toEqual(
      expect.arrayContaining([
        { name: 'CERTSVC_K8S_BROKER_URL', value: 'https://0.0.0.0:8443' },
        { name: 'CERTSVC_K8S_BROKER_TLS_CERT_FILE', value: '/etc/certsvc/broker-tls/tls.crt' },
        { name: 'CERTSVC_K8S_BROKER_TLS_KEY_FILE', value: '/etc/certsvc/broker-tls/tls.key' },
      ]),
    );
    expect(api?.volumes).toContainEqual({
      name: 'broker-tls',
      secret: { secretName: 'certsvc-broker-tls', defaultMode: 0o440 },
    });
    const passthrough = objects.find(
      (o) => label(o) === 'Ingress/rel-certificate-service-broker',
    ) as unknown as IIngress;
    expect(passthrough.metadata?.annotations?.['nginx.ingress.kubernetes.io/ssl-passthrough']).toBe(
      'true',
    );
    expect(passthrough.spec?.tls).toBeUndefined();
  });

  it('findings API and worker share one ReadWriteMany volume for uploaded reports (REPORT_STORAGE_DIR)', () => {
    const made = template('findings-service', []);
    const claim = made.find(
      (o) => label(o) === 'PersistentVolumeClaim/rel-findings-service-reports',
    );
    expect((claim as unknown as { spec: { accessModes: string[] } }).spec.accessModes).toEqual([
      'ReadWriteMany',
    ]);
    const named = template('findings-service', [
      '--set',
      'reportStorage.existingClaim=reports-rwx',
    ]);
    expect(byKind(named, 'PersistentVolumeClaim')).toEqual([]);
    for (const [objects, claimName] of [
      [made, 'rel-findings-service-reports'],
      [named, 'reports-rwx'],
    ] as const) {
      for (const role of ['api', 'worker']) {
        const pod = deployment(objects, `rel-findings-service-${role}`).spec?.template.spec;
        expect(pod?.containers[0].env).toContainEqual({
          name: 'REPORT_STORAGE_DIR',
          value: '/var/lib/findings/reports',
        });
        expect(pod?.containers[0].volumeMounts).toContainEqual({
          name: 'reports',
          mountPath: '/var/lib/findings/reports',
        });
        expect(pod?.volumes).toContainEqual({
          name: 'reports',
          persistentVolumeClaim: { claimName },
        });
      }
    }
  });

  it('the certificate web UI and API are told the same release tag (CERTSVC_IMAGE_TAG)', () => {
    const objects = template('certificate-service', ['--set', 'global.imageTag=0.33.9']);
    for (const role of ['api', 'worker', 'web']) {
      const pod = deployment(objects, `rel-certificate-service-${role}`).spec?.template.spec;
      expect(pod?.containers[0].env).toContainEqual({ name: 'CERTSVC_IMAGE_TAG', value: '0.33.9' });
      expect(pod?.containers[0].image).toMatch(/:0\.33\.9$/);
    }
  });

  it('the umbrella: one release, the runner reads the findings Secret, findings calls the runner', () => {
    const objects = template('security-platform', []);
    const names = byKind(objects, 'Deployment')
      .map((o) => o.metadata.name)
      .sort();
    expect(names).toEqual([
      'rel-certificate-service-api',
      'rel-certificate-service-web',
      'rel-certificate-service-worker',
      'rel-findings-service-api',
      'rel-findings-service-web',
      'rel-findings-service-worker',
      'rel-plugin-runner',
    ]);
    const runner = deployment(objects, 'rel-plugin-runner').spec?.template.spec;
    expect(runner?.containers[0].env).toContainEqual({
      name: 'PLUGIN_RUNNER_TOKEN',
      valueFrom: { secretKeyRef: { name: 'findings-service-secrets', key: 'PLUGIN_RUNNER_TOKEN' } },
    });
    expect(runner?.volumes).toContainEqual({
      name: 'plugin-sockets',
      emptyDir: { sizeLimit: '512Mi' },
    });
    // The transpile cache on a writable emptyDir (the root filesystem is read-only), in a
    // sub-directory the runner creates 0700 (an emptyDir's own mode is 0777).
    expect(runner?.volumes).toContainEqual({
      name: 'transpile-cache',
      emptyDir: { sizeLimit: '640Mi' },
    });
    expect(runner?.containers[0].volumeMounts).toContainEqual({
      name: 'transpile-cache',
      mountPath: '/var/cache/plugin-runner',
    });
    expect(runner?.containers[0].env).toEqual(
      expect.arrayContaining([
        { name: 'PLUGIN_RUNNER_TRANSPILE_CACHE_DIR', value: '/var/cache/plugin-runner/transpiles' },
        { name: 'PLUGIN_RUNNER_TRANSPILE_CACHE_MAX_MB', value: '512' },
      ]),
    );
    const worker = deployment(objects, 'rel-findings-service-worker').spec?.template.spec;
    expect(worker?.containers[0].env).toContainEqual({
      name: 'PLUGIN_RUNNER_URL',
      value: 'rel-plugin-runner:7071',
    });
  });
});

describe('broken values files are refused with a clear message', () => {
  it.each([
    [
      'findings-service',
      'findings-wrong-type',
      'api.replicas: Invalid type. Expected: integer, given: string',
    ],
    [
      'findings-service',
      'findings-missing-secret',
      'secrets.existingSecret: String length must be greater than or equal to 1',
    ],
    [
      'findings-service',
      'findings-secret-in-env',
      'env: Property name of "JWT_SECRET" does not match',
    ],
    [
      'certificate-service',
      'certificate-broker-without-tls',
      'broker.tlsSecret: String length must be greater than or equal to 1',
    ],
    [
      'plugin-runner',
      'runner-missing-token',
      'token.existingSecret: String length must be greater than or equal to 1',
    ],
    ['plugin-runner', 'runner-nodeport', 'service.type: service.type does not match: "ClusterIP"'],
    [
      'security-platform',
      'platform-missing-ca-key',
      'secrets.values: CERTSVC_CA_KEY_ENC_KEY is required',
    ],
  ])('%s with %s', (chart, file, message) => {
    for (const command of ['template', 'lint']) {
      const result = helm([
        command,
        ...(command === 'template' ? ['rel'] : ['--strict']),
        `deploy/helm/${chart}`,
        '-f',
        `deploy/test/broken/${file}.yaml`,
      ]);
      expect(result.status).not.toBe(0);
      expect(`${result.stdout}${result.stderr}`).toContain(
        "values don't meet the specifications of the schema(s)",
      );
      expect(`${result.stdout}${result.stderr}`).toContain(message);
    }
  });
});
