import { defineConfig } from 'vite';

// One classic script, widget/dist/widget.js, served by Parley at /widget.js (src/http/widget.ts):
// an IIFE with no imports, so `<script src=".../widget.js" async>` works on any page.
export default defineConfig({
  publicDir: false,
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2020',
    reportCompressedSize: true,
    lib: {
      entry: 'src/main.ts',
      name: 'ParleyWidget',
      formats: ['iife'],
      fileName: () => 'widget.js',
    },
  },
});
