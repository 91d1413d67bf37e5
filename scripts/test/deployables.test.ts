import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { discoverDeployables, instanceEnv, instancesOf } from '../lib/deployables';

describe('discoverDeployables', () => {
  let root: string;
  const pkg = (dir: string, json: object, main = true) => {
    mkdirSync(join(root, dir, 'src'), { recursive: true });
    writeFileSync(join(root, dir, 'package.json'), JSON.stringify(json));
    if (main) writeFileSync(join(root, dir, 'src', 'main.ts'), '');
  };

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'wb-deployables-'));
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('finds services with src/main.ts, skips libraries, and starts the gateway last', () => {
    pkg('gateway', { name: '@wb/gateway' });
    pkg('services/platform', { name: '@wb/platform' }, false);
    pkg('services/boards', { name: '@wb/boards' });
    pkg('services/auth', { name: '@wb/auth' });
    expect(discoverDeployables(root).map((d) => d.dir)).toEqual(['services/auth', 'services/boards', 'gateway']);
  });

  it('honours the wb field: opt-out, instances, per-instance ports and env, order', () => {
    pkg('services/auth', { name: '@wb/auth', wb: { deployable: false } });
    pkg('services/realtime', {
      name: '@wb/realtime',
      wb: { instances: 2, ports: ['RT_PORT'], env: { NODE_ID: 'rt-{instance}' }, order: 50 },
    });
    pkg('services/billing', { name: '@wb/billing' });
    const found = discoverDeployables(root);
    expect(found.map((d) => d.dir)).toEqual(['services/billing', 'services/realtime']);
    const realtime = found[1]!;
    expect(realtime.ports).toEqual(['RT_PORT']);
    const instances = instancesOf(realtime);
    expect(instances.map((i) => i.label)).toEqual(['realtime-1', 'realtime-2']);
    expect(instances.map(instanceEnv)).toEqual([{ NODE_ID: 'rt-1' }, { NODE_ID: 'rt-2' }]);
  });

  it('reports whether dist/main.js was built', () => {
    pkg('services/auth', { name: '@wb/auth' });
    expect(discoverDeployables(root)[0]!.built).toBe(false);
    mkdirSync(join(root, 'services/auth/dist'));
    writeFileSync(join(root, 'services/auth/dist/main.js'), '');
    expect(discoverDeployables(root)[0]!.built).toBe(true);
  });
});
