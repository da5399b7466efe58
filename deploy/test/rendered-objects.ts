import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { loadAll } from 'js-yaml';
import { Deployment } from 'kubernetes-models/apps/v1/Deployment';
import { HorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2/HorizontalPodAutoscaler';
import { Job } from 'kubernetes-models/batch/v1/Job';
import { Ingress } from 'kubernetes-models/networking.k8s.io/v1/Ingress';
import { NetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1/NetworkPolicy';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1/PodDisruptionBudget';
import { ConfigMap } from 'kubernetes-models/v1/ConfigMap';
import { PersistentVolumeClaim } from 'kubernetes-models/v1/PersistentVolumeClaim';
import type { IContainer } from 'kubernetes-models/v1/Container';
import type { IPodSpec } from 'kubernetes-models/v1/PodSpec';
import { Secret } from 'kubernetes-models/v1/Secret';
import { Service } from 'kubernetes-models/v1/Service';

/** One object of `helm template` output, as rendered. */
export interface K8sObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  [field: string]: unknown;
}

type Model = new (data: never) => { validate(): void };

/** The kinds the charts may render, each with its kubernetes-models class (API schema). */
const MODELS: Record<string, Model> = {
  'v1/ConfigMap': ConfigMap as unknown as Model,
  'v1/Secret': Secret as unknown as Model,
  'v1/Service': Service as unknown as Model,
  'v1/PersistentVolumeClaim': PersistentVolumeClaim as unknown as Model,
  'apps/v1/Deployment': Deployment as unknown as Model,
  'batch/v1/Job': Job as unknown as Model,
  'networking.k8s.io/v1/Ingress': Ingress as unknown as Model,
  'networking.k8s.io/v1/NetworkPolicy': NetworkPolicy as unknown as Model,
  'policy/v1/PodDisruptionBudget': PodDisruptionBudget as unknown as Model,
  'autoscaling/v2/HorizontalPodAutoscaler': HorizontalPodAutoscaler as unknown as Model,
};

export function parseManifests(text: string): K8sObject[] {
  return loadAll(text).filter((doc): doc is K8sObject => doc !== null && typeof doc === 'object');
}

export const label = (o: K8sObject): string => `${o.kind}/${o.metadata.name}`;

/** Every object validated against its Kubernetes API schema; an unknown kind is a problem. */
export function schemaProblems(objects: K8sObject[]): string[] {
  const problems: string[] = [];
  for (const object of objects) {
    const model = MODELS[`${object.apiVersion}/${object.kind}`];
    if (!model) {
      problems.push(`${label(object)}: no schema for ${object.apiVersion} ${object.kind}`);
      continue;
    }
    try {
      new model(object as never).validate();
    } catch (error) {
      problems.push(`${label(object)}: ${(error as Error).message}`);
    }
  }
  return problems;
}

export interface PodOwner {
  owner: K8sObject;
  spec: IPodSpec;
  containers: IContainer[];
}

/** Pod templates of Deployments and Jobs, with all their containers. */
export function podOwners(objects: K8sObject[]): PodOwner[] {
  return objects
    .filter((o) => o.kind === 'Deployment' || o.kind === 'Job')
    .map((owner) => {
      const spec = (owner as unknown as { spec: { template: { spec: IPodSpec } } }).spec.template
        .spec;
      return { owner, spec, containers: [...(spec.initContainers ?? []), ...spec.containers] };
    });
}

/** Non-root, read-only root, no privilege escalation, every capability dropped, seccomp. */
export function hardeningProblems(objects: K8sObject[]): string[] {
  const problems: string[] = [];
  for (const { owner, spec, containers } of podOwners(objects)) {
    const pod = spec.securityContext ?? {};
    for (const c of containers) {
      const sc = c.securityContext ?? {};
      const where = `${label(owner)} container ${c.name}`;
      if ((sc.runAsNonRoot ?? pod.runAsNonRoot) !== true)
        problems.push(`${where}: not runAsNonRoot`);
      if ((sc.runAsUser ?? pod.runAsUser) === 0) problems.push(`${where}: runs as uid 0`);
      if (sc.readOnlyRootFilesystem !== true) problems.push(`${where}: root filesystem writable`);
      if (sc.allowPrivilegeEscalation !== false) problems.push(`${where}: privilege escalation`);
      if (sc.privileged === true) problems.push(`${where}: privileged`);
      if (!(sc.capabilities?.drop ?? []).includes('ALL'))
        problems.push(`${where}: caps not dropped`);
      if ((sc.capabilities?.add ?? []).length > 0) problems.push(`${where}: adds capabilities`);
      if ((sc.seccompProfile ?? pod.seccompProfile)?.type !== 'RuntimeDefault') {
        problems.push(`${where}: seccomp profile is not RuntimeDefault`);
      }
    }
    if (spec.automountServiceAccountToken !== false) {
      problems.push(`${label(owner)}: mounts a service account token`);
    }
  }
  return problems;
}

/** Every Deployment's containers have both probes, requests (cpu, memory) and a memory limit. */
export function deploymentProblems(objects: K8sObject[]): string[] {
  const problems: string[] = [];
  for (const { owner, containers } of podOwners(objects)) {
    if (owner.kind !== 'Deployment') continue;
    for (const c of containers) {
      const where = `${label(owner)} container ${c.name}`;
      if (!c.readinessProbe) problems.push(`${where}: no readinessProbe`);
      if (!c.livenessProbe) problems.push(`${where}: no livenessProbe`);
      const requests = c.resources?.requests ?? {};
      if (requests.cpu === undefined || requests.memory === undefined) {
        problems.push(`${where}: no cpu/memory requests`);
      }
      if (c.resources?.limits?.memory === undefined) problems.push(`${where}: no memory limit`);
    }
  }
  return problems;
}

const SECRET_NAME = /(SECRET|PASSWORD|TOKEN|_ENC_KEY|PRIVATE_KEY)$|(^|_)(DATABASE|REDIS)_URL$/;

/** Values of the rendered Secrets (stringData and decoded data). */
export function secretValues(objects: K8sObject[]): Map<string, string> {
  const values = new Map<string, string>();
  for (const s of objects.filter((o) => o.kind === 'Secret')) {
    const stringData = (s.stringData ?? {}) as Record<string, string>;
    const data = (s.data ?? {}) as Record<string, string>;
    for (const [k, v] of Object.entries(stringData)) values.set(`${label(s)}:${k}`, v);
    for (const [k, v] of Object.entries(data)) {
      values.set(`${label(s)}:${k}`, Buffer.from(v, 'base64').toString('utf8'));
    }
  }
  return values;
}

/** A ConfigMap key that names a secret, or a ConfigMap value equal to a rendered secret value. */
export function configMapSecretProblems(objects: K8sObject[]): string[] {
  const secrets = secretValues(objects);
  const problems: string[] = [];
  for (const cm of objects.filter((o) => o.kind === 'ConfigMap')) {
    for (const [key, value] of Object.entries((cm.data ?? {}) as Record<string, string>)) {
      if (SECRET_NAME.test(key)) problems.push(`${label(cm)}: secret-like key ${key}`);
      for (const [where, secret] of secrets) {
        if (secret.length >= 8 && value.includes(secret)) {
          problems.push(`${label(cm)}: ${key} holds the value of ${where}`);
        }
      }
    }
  }
  return problems;
}

/** Environment variable names the containers get: explicit env, ConfigMap and Secret keys. */
export function environmentNames(objects: K8sObject[]): Set<string> {
  const names = new Set<string>();
  for (const { containers } of podOwners(objects)) {
    for (const c of containers) for (const e of c.env ?? []) names.add(e.name);
  }
  for (const cm of objects.filter((o) => o.kind === 'ConfigMap')) {
    for (const key of Object.keys((cm.data ?? {}) as object)) names.add(key);
  }
  for (const where of secretValues(objects).keys()) names.add(where.split(':').pop() as string);
  return names;
}

function markdownFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return markdownFiles(path);
    return name.endsWith('.md') ? [path] : [];
  });
}

/** The text of every document under docs/. */
export function documentation(repo: string): string {
  return markdownFiles(join(repo, 'docs'))
    .map((f) => readFileSync(f, 'utf8'))
    .join('\n');
}

/**
 * Names the documentation does not mention: as a whole word, through a documented family
 * (`CERTSVC_WEBHOOK_EGRESS_*`), or as `SSO_<ID>_<SETTING>`.
 */
export function undocumentedNames(names: Iterable<string>, docs: string): string[] {
  const families = [...docs.matchAll(/`([A-Z][A-Z0-9_]*)_\*`/g)].map((m) => `${m[1]}_`);
  return [...names].filter((name) => {
    if (new RegExp(`\\b${name}\\b`).test(docs)) return false;
    if (families.some((prefix) => name.startsWith(prefix))) return false;
    const sso = /^SSO_[A-Z0-9]+_(.+)$/.exec(name);
    return !(sso && docs.includes(`SSO_<ID>_${sso[1]}`));
  });
}
