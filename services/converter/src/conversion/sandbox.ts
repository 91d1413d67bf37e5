/**
 * The sandbox every conversion tool runs in (issue 25 §1): an unprivileged user, a private
 * filesystem view that holds the system's programs and libraries (/usr, the font configuration)
 * and nothing else but the folders the caller names (the job's folder, the office's profile), no
 * network, no IPC, its own process ids, killed with its parent.
 *
 * - `bwrap` (Debian's bubblewrap), preferred: run as `SANDBOX_UID` through `setpriv` when the
 *   worker is root, then bubblewrap's unprivileged user namespace with every namespace unshared.
 * - `unshare`: when user namespaces are refused but the worker is root: `unshare` with private
 *   mount, network, IPC and PID namespaces builds the same view in a tmpfs and `chroot
 *   --userspec` drops to `SANDBOX_UID`.
 * - `none`: neither works (logged loudly; only `SANDBOX=auto` allows it): tools read what the
 *   worker can read.
 *
 * The mode is probed once per process (a real `true` run in the sandbox) and logged.
 */
import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  chownSync,
  cpSync,
  existsSync,
  lstatSync,
  mkdtempSync,
  readlinkSync,
  rmSync,
  statSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { Logger } from '@wb/platform';

export type SandboxMode = 'bwrap' | 'unshare' | 'none';
export type SandboxSetting = 'auto' | SandboxMode;

export interface SandboxView {
  /** folders the tool may read and write (bound at the same path) */
  rw: string[];
  /** extra folders it may only read (bound at the same path) */
  ro?: string[];
  /** working directory inside (defaults to the first rw folder) */
  cwd?: string;
}

/** system folders every tool needs, read-only; missing ones are skipped */
const SYSTEM_RO = [
  '/usr',
  '/etc/fonts',
  '/etc/ld.so.cache',
  '/etc/alternatives',
  '/etc/libreoffice',
  '/etc/mime.types',
  '/var/cache/fontconfig',
];
/** top-level links of a merged /usr (Debian 12): /bin -> usr/bin … */
const ROOT_LINKS = ['/bin', '/lib', '/lib64', '/sbin', '/lib32', '/libx32'];

export class Sandbox {
  /** uid/gid the tools run as when the worker is root */
  readonly uid: number;
  private constructor(
    readonly mode: SandboxMode,
    uid: number,
  ) {
    this.uid = uid;
  }

  static disabled(): Sandbox {
    return new Sandbox('none', process.getuid?.() ?? 0);
  }

  /** probe the modes in order (or only the one asked for) and log which one is used */
  static probe(setting: SandboxSetting, uid: number, log: Logger): Sandbox {
    const candidates: SandboxMode[] = setting === 'auto' ? ['bwrap', 'unshare'] : [setting];
    for (const mode of candidates) {
      if (mode === 'none') break;
      const box = new Sandbox(mode, uid);
      const probeDir = mkdtempSync(join(tmpdir(), 'wb-sandbox-probe-'));
      try {
        box.prepare(probeDir);
        const cmd = box.wrap(['/bin/sh', '-c', 'test "$(id -u)" != 0 && test ! -e /etc/passwd && test ! -e /root'], {
          rw: [probeDir],
        });
        const res = spawnSync(cmd[0]!, cmd.slice(1), { stdio: ['ignore', 'ignore', 'pipe'], timeout: 10_000 });
        if (res.status === 0) {
          log.info({ sandbox: mode, uid: box.runsAsUid }, `conversion tools run sandboxed (${mode})`);
          return box;
        }
        log.warn({ sandbox: mode, stderr: res.stderr?.toString('utf8').slice(0, 300) }, `sandbox ${mode} not usable`);
      } finally {
        rmSync(probeDir, { recursive: true, force: true });
      }
    }
    if (setting !== 'auto' && setting !== 'none') {
      throw new Error(`SANDBOX=${setting} was asked for but does not work on this machine`);
    }
    const box = Sandbox.disabled();
    if (setting === 'none') log.warn('SANDBOX=none: conversion tools run unsandboxed, as the worker');
    if (setting === 'auto') {
      log.error(
        'NO SANDBOX: neither bubblewrap nor unshare works here; conversion tools can read every file the worker can (install bubblewrap, allow user namespaces or run as root)',
      );
    }
    return box;
  }

  /** the uid the tools end up as (the worker's own when it is not root) */
  get runsAsUid(): number {
    const own = process.getuid?.() ?? 0;
    return own === 0 && this.mode !== 'none' ? this.uid : own;
  }

  /** make a folder the sandboxed tools will write to theirs (owned by the sandbox user) */
  prepare(dir: string): void {
    if (this.mode === 'none' || (process.getuid?.() ?? 0) !== 0) return;
    chownSync(dir, this.uid, this.uid);
  }

  /** `cmd` wrapped to run in the sandbox with `view` */
  wrap(cmd: string[], view: SandboxView): string[] {
    if (this.mode === 'none') return cmd;
    if (this.mode === 'bwrap') return this.bwrap(cmd, view);
    return this.unshare(cmd, view);
  }

  private dropPrivileges(): string[] {
    if ((process.getuid?.() ?? 0) !== 0) return [];
    return ['setpriv', `--reuid=${this.uid}`, `--regid=${this.uid}`, '--clear-groups', '--inh-caps=-all', '--'];
  }

  /** `dir` itself when the tools' user can reach it, else a copy it can (made once per process) */
  private readableCopyOf(dir: string): string {
    const uid = this.runsAsUid;
    if (uid === (process.getuid?.() ?? 0) || reachableBy(uid, dir)) return dir;
    const known = stagedCopies.get(dir);
    if (known) return known;
    stagingRoot ??= makeStagingRoot();
    const copy = join(stagingRoot, String(stagedCopies.size));
    cpSync(dir, copy, { recursive: true, dereference: true });
    stagedCopies.set(dir, copy);
    return copy;
  }

  private bwrap(cmd: string[], view: SandboxView): string[] {
    const args = [
      ...this.dropPrivileges(),
      'bwrap',
      '--unshare-all',
      '--die-with-parent',
      '--new-session',
      '--cap-drop',
      'ALL',
      '--clearenv',
      '--setenv',
      'PATH',
      '/usr/bin:/bin',
      '--setenv',
      'HOME',
      '/tmp',
      '--setenv',
      'TMPDIR',
      '/tmp',
      '--setenv',
      'LANG',
      'C.UTF-8',
    ];
    for (const dir of SYSTEM_RO) if (existsSync(dir)) args.push('--ro-bind', dir, dir);
    for (const link of ROOT_LINKS) {
      const target = symlinkTarget(link);
      if (target) args.push('--symlink', target, link);
      else if (existsSync(link)) args.push('--ro-bind', link, link);
    }
    args.push('--proc', '/proc', '--dev', '/dev', '--tmpfs', '/tmp');
    // bubblewrap binds as the sandbox user: a read-only folder it cannot reach (a checkout under a
    // private parent, e.g. a 0700 temporary folder) is bound from a copy it can read, at its own path
    for (const dir of view.ro ?? []) args.push('--ro-bind', this.readableCopyOf(dir), dir);
    for (const dir of view.rw) args.push('--bind', dir, dir);
    args.push('--chdir', view.cwd ?? view.rw[0] ?? '/tmp', '--', ...cmd);
    return args;
  }

  /**
   * Root without user namespaces: a tmpfs root with the same binds, then chroot as the sandbox
   * user. `--kill-child` and the PID namespace end every process when the wrapper dies.
   */
  private unshare(cmd: string[], view: SandboxView): string[] {
    const q = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
    const lines = ['set -e', 'R=$(mktemp -d /tmp/wb-sandbox-XXXXXX)', 'mount -t tmpfs -o mode=755 none "$R"'];
    const bind = (dir: string, ro: boolean) => {
      const isDir = lstatSync(dir).isDirectory();
      lines.push(
        isDir ? `mkdir -p "$R"${q(dir)}` : `mkdir -p "$(dirname "$R"${q(dir)})"; touch "$R"${q(dir)}`,
        `mount --rbind ${q(dir)} "$R"${q(dir)}`,
      );
      if (ro) lines.push(`mount -o remount,bind,ro "$R"${q(dir)}`);
    };
    for (const dir of SYSTEM_RO) if (existsSync(dir)) bind(dir, true);
    for (const link of ROOT_LINKS) {
      const target = symlinkTarget(link);
      if (target) lines.push(`ln -s ${q(target)} "$R"${q(link)}`);
      else if (existsSync(link)) bind(link, true);
    }
    lines.push(
      'mkdir -p "$R/proc" "$R/dev" "$R/tmp"',
      'mount -t proc proc "$R/proc"',
      'mount -t tmpfs -o mode=1777 none "$R/tmp"',
      'for d in null zero full random urandom tty; do touch "$R/dev/$d"; mount --bind /dev/$d "$R/dev/$d"; done',
    );
    for (const dir of view.ro ?? []) bind(dir, true);
    for (const dir of view.rw) bind(dir, false);
    const user = (process.getuid?.() ?? 0) === 0 ? `--userspec=${this.uid}:${this.uid} ` : '';
    const cwd = view.cwd ?? view.rw[0] ?? '/tmp';
    lines.push(
      `exec chroot ${user}"$R" /usr/bin/env -i PATH=/usr/bin:/bin HOME=/tmp TMPDIR=/tmp LANG=C.UTF-8 /bin/sh -c 'cd "$1" && shift && exec "$@"' sh ${q(cwd)} ${cmd.map(q).join(' ')}`,
    );
    return [
      'unshare',
      '--mount',
      '--net',
      '--ipc',
      '--uts',
      '--pid',
      '--fork',
      '--kill-child',
      '--mount-proc',
      '--propagation',
      'private',
      '--',
      '/bin/sh',
      '-c',
      lines.join('\n'),
    ];
  }
}

/** copies of read-only folders the tools' user could not reach, by original path */
const stagedCopies = new Map<string, string>();
let stagingRoot: string | undefined;

function makeStagingRoot(): string {
  const root = mkdtempSync(join(tmpdir(), 'wb-sandbox-ro-'));
  chmodSync(root, 0o755);
  process.once('exit', () => rmSync(root, { recursive: true, force: true }));
  return root;
}

/** can `uid` (with no groups) open `dir`: search on every ancestor, read and search on itself */
function reachableBy(uid: number, dir: string): boolean {
  const allows = (path: string, ownerBits: number, otherBits: number): boolean => {
    const st = statSync(path);
    return st.uid === uid ? (st.mode & ownerBits) === ownerBits : (st.mode & otherBits) === otherBits;
  };
  try {
    if (!allows(dir, 0o500, 0o005)) return false;
    for (let up = dirname(dir); ; up = dirname(up)) {
      if (!allows(up, 0o100, 0o001)) return false;
      if (up === dirname(up)) return true;
    }
  } catch {
    return false;
  }
}

function symlinkTarget(path: string): string | null {
  try {
    const st = lstatSync(path);
    if (!st.isSymbolicLink()) return null;
    return readlinkSync(path);
  } catch {
    return null;
  }
}
