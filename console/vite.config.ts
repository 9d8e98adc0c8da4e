import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// Built into console/dist and served by Parley at /console/ (src/http/console.ts). Every file the
// build writes is under assets/ with its content hash in the name, so Parley caches them for a year.
export default defineConfig({
  base: '/console/',
  plugins: [react()],
  publicDir: false,
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    assetsDir: 'assets',
    // The first load's weight is reported after each build (docs/console.md "Page weight").
    reportCompressedSize: true,
    chunkSizeWarningLimit: 600,
  },
  server: {
    // `npm run dev -w @parley/console` talks to a Parley on :8080 through Vite's proxy.
    proxy: { '/v2': 'http://127.0.0.1:8080', '/openapi.json': 'http://127.0.0.1:8080' },
  },
});
