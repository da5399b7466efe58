import type { FastifyRequest } from 'fastify';
import type { PluginRuntime } from '@platform/plugin-sdk';
import { uploadErrorOf } from '../../reports/multipart-parts';
import { PluginsError } from '../plugins.errors';

export interface SideloadForm {
  module: Buffer;
  description: Buffer;
  runtime?: PluginRuntime;
}

const DESCRIPTION_MAX_BYTES = 256 * 1024;

/**
 * Reads the sideload form: file `module` (the component), file `description` (manifest.json),
 * optional field `runtime`. Parser failures answer with the upload's codes (multipart_malformed,
 * multipart_boundary_missing, upload_too_many_files, upload_too_many_parts); an oversized
 * module answers plugin_artifact_too_large.
 */
export async function readSideloadForm(
  request: FastifyRequest,
  maxModuleBytes: number,
): Promise<SideloadForm> {
  if (!request.isMultipart()) {
    throw new PluginsError('plugin_upload_invalid', { reason: 'not multipart/form-data' });
  }
  const files = new Map<string, Buffer>();
  let runtime: string | undefined;
  try {
    for await (const part of request.parts({
      limits: { files: 2, fields: 5, parts: 8, fileSize: maxModuleBytes + 1 },
    })) {
      if (part.type === 'field') {
        if (part.fieldname === 'runtime') runtime = String(part.value);
        continue;
      }
      if (part.fieldname !== 'module' && part.fieldname !== 'description') {
        part.file.resume();
        throw new PluginsError('plugin_upload_invalid', {
          reason: `unexpected file field "${part.fieldname}"`,
        });
      }
      if (files.has(part.fieldname)) {
        part.file.resume();
        throw new PluginsError('plugin_upload_invalid', {
          reason: `"${part.fieldname}" sent twice`,
        });
      }
      const limit = part.fieldname === 'module' ? maxModuleBytes : DESCRIPTION_MAX_BYTES;
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of part.file) {
        size += (chunk as Buffer).length;
        if (size > limit) {
          throw new PluginsError(
            part.fieldname === 'module' ? 'plugin_artifact_too_large' : 'plugin_upload_invalid',
            part.fieldname === 'module'
              ? { max_bytes: limit }
              : { reason: `description larger than ${limit} bytes` },
          );
        }
        chunks.push(chunk as Buffer);
      }
      files.set(part.fieldname, Buffer.concat(chunks));
    }
  } catch (error) {
    if (error instanceof PluginsError) throw error;
    const mapped = uploadErrorOf(error);
    if ((mapped as { code?: string }).code === 'report_too_large') {
      throw new PluginsError('plugin_artifact_too_large', { max_bytes: maxModuleBytes });
    }
    throw mapped;
  }
  const module = files.get('module');
  const description = files.get('description');
  if (!module || !description) {
    throw new PluginsError('plugin_upload_invalid', {
      reason: `missing ${!module ? 'module' : 'description'}`,
    });
  }
  if (runtime !== undefined && runtime !== 'wasm' && runtime !== 'native') {
    throw new PluginsError('plugin_upload_invalid', { reason: 'runtime must be wasm or native' });
  }
  return { module, description, runtime: runtime as PluginRuntime | undefined };
}
