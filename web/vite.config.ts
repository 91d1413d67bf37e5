import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

/** In development (`npm run dev -w @wb/web`) the API is the gateway started by `make up`. */
const gateway = process.env.GATEWAY_URL ?? 'http://localhost:8080';
const protoSrc = fileURLToPath(new URL('../proto/src/', import.meta.url));

const zodStub = fileURLToPath(new URL('./src/app/zodStub.ts', import.meta.url));

export default defineConfig({
  plugins: [
    react(),
    {
      // proto's schemas are not used in the browser: its sources get a zod stand-in (see zodStub.ts)
      name: 'wb-proto-without-zod',
      enforce: 'pre',
      resolveId(source, importer) {
        if (source === 'zod' && importer?.startsWith(protoSrc)) return zodStub;
        return null;
      },
    },
  ],
  resolve: {
    // the ESM sources of the shared contracts, so only the constants the app uses are bundled
    // (proto's dist is CommonJS, which would pull in every zod schema)
    alias: [{ find: /^@wb\/proto$/, replacement: `${protoSrc}index.ts` }],
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: true,
    manifest: true,
    rolldownOptions: {
      // proto's modules only declare schemas and constants: unused ones can be dropped
      treeshake: {
        moduleSideEffects: (id: string) => !id.startsWith(protoSrc),
      },
    },
  },
  server: {
    port: 5173,
    proxy: {
      '/api': { target: gateway, changeOrigin: false },
      '/auth': { target: gateway, changeOrigin: false },
      // board rooms: websocket upgrades to the gateway, which routes them to the owner node
      '/rt': { target: gateway, changeOrigin: false, ws: true },
      // uploads and the content-addressed page/image files; /images and /documents alone are SPA routes
      '/display-image': { target: gateway, changeOrigin: false },
      '^/docs($|/)': { target: gateway, changeOrigin: false },
      '^/images/[0-9a-f]{64}-': { target: gateway, changeOrigin: false },
    },
  },
});
