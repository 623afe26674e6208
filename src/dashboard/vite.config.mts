import { defineConfig } from 'vite';
import preact from '@preact/preset-vite';

/** Everything the API serves, proxied by the development server so the app and the API share one origin. */
const apiTarget = process.env.DASHBOARD_API_URL ?? 'http://localhost:3000';

export default defineConfig({
  root: import.meta.dirname,
  base: '/app/',
  plugins: [preact({ prerender: { enabled: false } })],
  build: {
    outDir: process.env.DASHBOARD_OUT_DIR ?? '../../dist/dashboard',
    emptyOutDir: true,
    target: 'es2022',
    reportCompressedSize: false,
  },
  server: {
    strictPort: true,
    // Every path but the app's own goes to the API (docs/dashboard.md "Developing").
    proxy: { '^/(?!app(/|$)|@|node_modules/|src/)': { target: apiTarget, changeOrigin: false } },
  },
});
