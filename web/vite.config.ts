import path from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/** The console: built into web/dist and served by the API on its own port (api/web.ts). */
const here = import.meta.dirname;

export default defineConfig({
  root: here,
  base: '/',
  plugins: [react()],
  resolve: {
    alias: {
      '@web': path.join(here, 'src'),
      '@domain': path.join(here, '..', 'domain'),
      '@api/contracts': path.join(here, '..', 'api', 'contracts'),
    },
  },
  build: { outDir: path.join(here, 'dist'), emptyOutDir: true, chunkSizeWarningLimit: 1500 },
  server: { fs: { allow: [path.join(here, '..')] } },
});
