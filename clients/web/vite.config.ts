import { defineConfig } from 'vite';

// Preact's JSX runtime comes from tsconfig (jsxImportSource); no framework plugin is needed.
// `npm run dev` proxies the game server's endpoints (XQ_SERVER, default localhost:8080).
const server = process.env.XQ_SERVER ?? 'http://127.0.0.1:8080';

export default defineConfig({
  base: './',
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: true },
  server: {
    proxy: {
      '/ws': { target: server.replace(/^http/, 'ws'), ws: true },
      '/api': server,
    },
  },
  test: { include: ['test/**/*.test.ts'] },
});
