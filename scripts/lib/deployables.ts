/**
 * Which packages `make up` starts, read from the packages themselves (no list to keep in sync).
 *
 * A package under services/* or gateway/ is a deployable when it has `src/main.ts`, unless its
 * package.json says `"wb": { "deployable": false }`. The optional `wb` field tunes how it runs:
 *
 *   "wb": {
 *     "deployable": true,          // force in/out (default: has src/main.ts)
 *     "instances": 2,              // processes to start (e.g. two realtime nodes); default 1
 *     "ports": ["RT_PORT"],        // env vars that get a distinct free port per instance
 *     "env": { "NODE_ID": "rt-{instance}" },  // extra env; {instance} = 1, 2, …
 *     "order": 10                  // start order (lower first); default 0, gateway 100
 *   }
 *
 * Every instance also gets its own HEALTH_PORT; the gateway gets HTTP_PORT (8080 or $PORT).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './paths';

export interface WbField {
  deployable?: boolean;
  instances?: number;
  ports?: string[];
  env?: Record<string, string>;
  order?: number;
}

export interface Deployable {
  /** repo-relative package dir, e.g. 'services/auth' */
  dir: string;
  /** short name, e.g. 'auth', 'gateway' */
  name: string;
  instances: number;
  ports: string[];
  env: Record<string, string>;
  order: number;
  /** absolute path of the built entry point */
  main: string;
  built: boolean;
}

export interface Instance {
  deployable: Deployable;
  /** 'auth', or 'realtime-1', 'realtime-2' when there are several */
  label: string;
  index: number;
}

function packageDirs(root: string): string[] {
  const dirs: string[] = [];
  const services = join(root, 'services');
  if (existsSync(services)) {
    for (const entry of readdirSync(services).sort()) {
      if (existsSync(join(services, entry, 'package.json'))) dirs.push(`services/${entry}`);
    }
  }
  if (existsSync(join(root, 'gateway', 'package.json'))) dirs.push('gateway');
  return dirs;
}

export function readWbField(pkg: unknown): WbField {
  const wb = (pkg as { wb?: unknown }).wb;
  return wb && typeof wb === 'object' ? (wb as WbField) : {};
}

export function discoverDeployables(root: string = ROOT): Deployable[] {
  const found: Deployable[] = [];
  for (const dir of packageDirs(root)) {
    const pkg: unknown = JSON.parse(readFileSync(join(root, dir, 'package.json'), 'utf8'));
    const wb = readWbField(pkg);
    const deployable = wb.deployable ?? existsSync(join(root, dir, 'src', 'main.ts'));
    if (!deployable) continue;
    const name = dir.split('/').pop()!;
    const main = join(root, dir, 'dist', 'main.js');
    found.push({
      dir,
      name,
      instances: Math.max(1, Math.floor(wb.instances ?? 1)),
      ports: wb.ports ?? [],
      env: wb.env ?? {},
      order: wb.order ?? (dir === 'gateway' ? 100 : 0),
      main,
      built: existsSync(main),
    });
  }
  return found.sort((a, b) => a.order - b.order || a.dir.localeCompare(b.dir));
}

export function instancesOf(d: Deployable): Instance[] {
  return Array.from({ length: d.instances }, (_, i) => ({
    deployable: d,
    index: i + 1,
    label: d.instances > 1 ? `${d.name}-${i + 1}` : d.name,
  }));
}

/** `{instance}` in wb.env values → the instance number */
export function instanceEnv(inst: Instance): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(inst.deployable.env)) out[k] = v.replaceAll('{instance}', String(inst.index));
  return out;
}
