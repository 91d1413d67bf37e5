/**
 * Stand-in for zod inside the web bundle (vite.config.ts swaps it in for proto's sources only):
 * the app uses proto's constants and types, never its schemas, and zod would add ~75 KB gzipped
 * to the first load. Building a schema works (it yields this stub); validating throws loudly.
 */
const fail = () => {
  throw new Error('zod schemas from @wb/proto are not bundled in the web app');
};

const stub: unknown = new Proxy(function () {}, {
  get: (_target, prop) => (prop === 'parse' || prop === 'safeParse' || prop === 'parseAsync' ? fail : stub),
  apply: () => stub,
});

export const z = stub;
