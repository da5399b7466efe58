import type { Client } from 'openapi-fetch';
import type { paths } from '../api/findings.gen';
import { CliError, EXIT, usageError } from '../errors';
import { must } from '../http/clients';

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface ProductRef {
  id: string;
  label: string;
}

/**
 * `--product`: an id as it is; otherwise a name (`product` or `project/product`) looked up
 * among the projects the caller sees. Names need a person's session: the project list is not
 * open to service-account keys, which name the product by id.
 */
export async function resolveProduct(api: Client<paths>, ref: string): Promise<ProductRef> {
  if (UUID.test(ref)) return { id: ref.toLowerCase(), label: ref };
  const slash = ref.indexOf('/');
  const projectName = slash >= 0 ? ref.slice(0, slash) : undefined;
  const productName = slash >= 0 ? ref.slice(slash + 1) : ref;
  if (!productName.trim()) throw usageError(`--product: empty product name in "${ref}"`);
  let projects;
  try {
    projects = must(await api.GET('/api/v1/projects')).data;
  } catch (error) {
    if (error instanceof CliError && error.exitCode === EXIT.auth) {
      throw new CliError(
        EXIT.usage,
        `--product ${ref}: cannot look up names with these credentials (${error.message}); pass the product id`,
      );
    }
    throw error;
  }
  const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();
  const matches: ProductRef[] = [];
  for (const project of projects) {
    if (projectName !== undefined && !same(project.name, projectName)) continue;
    const products = must(
      await api.GET('/api/v1/projects/{id}/products', { params: { path: { id: project.id } } }),
    ).data;
    for (const p of products) {
      if (same(p.name, productName)) matches.push({ id: p.id, label: `${project.name}/${p.name}` });
    }
  }
  if (matches.length === 1) return matches[0];
  if (matches.length === 0)
    throw usageError(`--product: no product named "${ref}" that you can see`);
  throw usageError(
    `--product: "${ref}" is ambiguous (${matches.map((m) => m.label).join(', ')}); use project/product or the id`,
  );
}
