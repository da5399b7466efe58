import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const root = resolve(__dirname);
const workspace = resolve(root, '../..');
const { version } = JSON.parse(readFileSync(resolve(workspace, 'package.json'), 'utf8')) as {
  version: string;
};

/**
 * The UI's X.Y is the workspace's package major.minor, the same source as the backend's
 * build stamp (libs/versioning): the sign-in page warns when the service's
 * /api/v1/version differs, and the Versions screen shows both.
 */
export default defineConfig({
  root,
  base: '/',
  plugins: [react()],
  // The shared UI library (libs/web-ui), by the same names as tsconfig.base.json's paths.
  resolve: {
    alias: [
      { find: /^@platform\/web-ui$/, replacement: resolve(workspace, 'libs/web-ui/src/index.ts') },
      {
        find: /^@platform\/web-ui\/core$/,
        replacement: resolve(workspace, 'libs/web-ui/src/core/index.ts'),
      },
    ],
  },
  define: {
    __APP_MAJOR_MINOR__: JSON.stringify(version.split('.').slice(0, 2).join('.')),
    __APP_VERSION__: JSON.stringify(version),
  },
  build: {
    outDir: resolve(workspace, 'dist/apps/certificate-web'),
    emptyOutDir: true,
    sourcemap: false,
    chunkSizeWarningLimit: 1200,
  },
  server: {
    proxy: { '/api': 'http://127.0.0.1:8080' },
  },
});
