import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

/** In development (`npm run dev -w @wb/web`) the API is the gateway started by `make up`. */
const gateway = process.env.GATEWAY_URL ?? 'http://localhost:8080';

export default defineConfig({
  plugins: [react()],
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: true },
  server: {
    port: 5173,
    proxy: {
      '/api': { target: gateway, changeOrigin: false },
      '/auth': { target: gateway, changeOrigin: false },
    },
  },
});
