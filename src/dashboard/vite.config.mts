import { defineConfig, type Plugin } from 'vite';
import preact from '@preact/preset-vite';
import { tokensCss } from '../design/tokens';

/** Everything the API serves, proxied by the development server so the app and the API share one origin. */
const apiTarget = process.env.DASHBOARD_API_URL ?? 'http://localhost:3000';

/**
 * `virtual:postwire-tokens.css`: the design tokens of src/design/tokens.ts as CSS, bundled into the app's
 * stylesheet (the server-rendered pages inline the same string).
 */
function designTokens(): Plugin {
  const id = 'virtual:postwire-tokens.css';
  const resolved = `\0${id}`;
  return {
    name: 'postwire-design-tokens',
    resolveId: (source) => (source === id ? resolved : undefined),
    load: (loaded) => (loaded === resolved ? tokensCss() : undefined),
  };
}

export default defineConfig({
  root: import.meta.dirname,
  base: '/app/',
  plugins: [designTokens(), preact({ prerender: { enabled: false } })],
  build: {
    outDir: process.env.DASHBOARD_OUT_DIR ?? '../../dist/dashboard',
    emptyOutDir: true,
    target: 'es2022',
    reportCompressedSize: false,
  },
  server: {
    strictPort: true,
    // Every path but the app's own goes to the API (docs/contributors/dashboard.md "Developing").
    proxy: { '^/(?!app(/|$)|@|node_modules/|src/)': { target: apiTarget, changeOrigin: false } },
  },
});
