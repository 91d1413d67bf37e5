/**
 * CPU profiles of server processes for `BENCH_PROFILE=1` (Node 20 refuses --cpu-prof in
 * NODE_OPTIONS, and startStack decides the command line): `profileHook(dir)` writes a small
 * CommonJS preload into `dir` and returns the NODE_OPTIONS that load it. The preload starts the V8
 * profiler in the main thread on SIGUSR2 (so start-up is left out: the benchmark signals its
 * servers once they are ready) and writes `<dir>/<CPU_PROFILE_NAME>-<pid>.cpuprofile` when the
 * process exits (open it in Chrome DevTools → Performance, or speedscope); `summarizeProfile`
 * lists the top self-time functions and the inclusive time of functions under a path.
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { c } from './log';
import { ROOT } from './paths';

const HOOK = `'use strict';
const { isMainThread } = require('node:worker_threads');
const dir = process.env.CPU_PROFILE_DIR;
if (dir && isMainThread) {
  const { Session } = require('node:inspector');
  const { mkdirSync, writeFileSync } = require('node:fs');
  const { join } = require('node:path');
  const session = new Session();
  session.connect();
  let started = false;
  process.on('SIGUSR2', () => {
    if (started) return;
    started = true;
    session.post('Profiler.enable');
    session.post('Profiler.setSamplingInterval', { interval: 500 });
    session.post('Profiler.start');
  });
  let written = false;
  process.on('exit', () => {
    if (written || !started) return;
    written = true;
    // the in-process session answers synchronously, so this works inside 'exit'
    session.post('Profiler.stop', (err, result) => {
      if (err) return;
      mkdirSync(dir, { recursive: true });
      const name = (process.env.CPU_PROFILE_NAME || 'process') + '-' + process.pid + '.cpuprofile';
      writeFileSync(join(dir, name), JSON.stringify(result.profile));
    });
  });
}
`;

/** NODE_OPTIONS and env that make a Node process write its CPU profile into `dir` on exit */
export function profileHook(dir: string, name: string): Record<string, string> {
  mkdirSync(dir, { recursive: true });
  const path = join(dir, 'cpu-profile-hook.cjs');
  writeFileSync(path, HOOK);
  return { NODE_OPTIONS: `--require ${path}`, CPU_PROFILE_DIR: dir, CPU_PROFILE_NAME: name };
}

/** start the profilers of processes preloaded with the hook */
export function startProfiling(pids: Array<number | undefined>): void {
  for (const pid of pids) if (pid) process.kill(pid, 'SIGUSR2');
}

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/**
 * Top self-time functions of a .cpuprofile, then the inclusive time of functions defined in files
 * whose path contains `focus` (e.g. "services/realtime/dist"), as "share %  function  file:line".
 */
export function summarizeProfile(
  file: string,
  root: string,
  focus?: string,
  top = 12,
): { self: string[]; inclusive: string[] } {
  const p = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of p.nodes) for (const ch of n.children ?? []) parent.set(ch, n.id);
  const keyOf = (n: ProfileNode): string => {
    const f = n.callFrame;
    const where = f.url ? `${relative(root, f.url.replace(/^file:\/\//, ''))}:${f.lineNumber + 1}` : '';
    return `${f.functionName || '(anonymous)'}  ${where}`;
  };
  const self = new Map<string, number>();
  const incl = new Map<string, number>();
  let total = 0;
  for (let i = 0; i < p.samples.length; i++) {
    const n = byId.get(p.samples[i]!);
    const dt = p.timeDeltas[i] ?? 0;
    if (!n) continue;
    const name = n.callFrame.functionName;
    if (name === '(idle)' || name === '(program)') continue;
    // the inspector's own Profiler.start/stop round trips (native, no url): not the process's work
    if (name === 'dispatch' && !n.callFrame.url) continue;
    total += dt;
    self.set(keyOf(n), (self.get(keyOf(n)) ?? 0) + dt);
    if (!focus) continue;
    const seen = new Set<string>();
    for (let cur: ProfileNode | undefined = n; cur; cur = byId.get(parent.get(cur.id) ?? -1)) {
      if (!cur.callFrame.url.includes(focus)) continue;
      const k = keyOf(cur);
      if (seen.has(k)) continue;
      seen.add(k);
      incl.set(k, (incl.get(k) ?? 0) + dt);
    }
  }
  const fmt = (m: Map<string, number>): string[] =>
    [...m.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([k, v]) => `${((v / total) * 100).toFixed(1).padStart(5)} %  ${k}`);
  return { self: fmt(self), inclusive: fmt(incl) };
}

/** Print the summary of every profile in `dir` (top self time; inclusive time of `focus` functions). */
export function printProfiles(dir: string, focus: string): void {
  let files: string[] = [];
  try {
    files = readdirSync(dir).filter((f) => f.endsWith('.cpuprofile'));
  } catch {
    // none written
  }
  for (const f of files.sort()) {
    console.log('');
    const { self, inclusive } = summarizeProfile(join(dir, f), ROOT, focus);
    console.log(c.bold(`  CPU profile ${relative(ROOT, join(dir, f))} (share of busy time): self`));
    for (const line of self) console.log(`  ${line}`);
    if (inclusive.length) {
      console.log(c.bold(`  inclusive, functions in ${focus}`));
      for (const line of inclusive) console.log(`  ${line}`);
    }
  }
}
