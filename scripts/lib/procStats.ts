/** Linux /proc readers the benchmarks use for the CPU time and memory of the processes they measure. */
import { readdirSync, readFileSync } from 'node:fs';

const CLK_TCK = 100;

/**
 * CPU ms of a process so far: the sum over its threads of /proc/<pid>/task/<tid>/schedstat (time
 * on a CPU, in ns — /proc/<pid>/stat counts 10 ms ticks, too coarse for a few edits), falling back
 * to utime+stime of /proc/<pid>/stat. NaN when unreadable.
 */
export function cpuMs(pid: number | undefined): number {
  if (!pid) return NaN;
  try {
    let ns = 0;
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      try {
        ns += Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]);
      } catch {
        // the thread ended between readdir and read
      }
    }
    if (ns > 0) return ns / 1e6;
  } catch {
    // no schedstat (kernel without CONFIG_SCHEDSTATS): ticks below
  }
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLK_TCK;
  } catch {
    return NaN;
  }
}

/** resident set size of a process in bytes; NaN when unreadable */
export function rssBytes(pid: number | undefined): number {
  if (!pid) return NaN;
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) * 1024 : NaN;
  } catch {
    return NaN;
  }
}

/** busy and total jiffies of the whole machine so far */
export function machineTicks(): { busy: number; total: number } {
  try {
    const cpu = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
    const total = cpu.reduce((a, b) => a + b, 0);
    return { busy: total - cpu[3]! - (cpu[4] ?? 0), total };
  } catch {
    return { busy: NaN, total: NaN };
  }
}

/** share of all cores busy since `before` (machineTicks), in %, one decimal: everything on the machine */
export function machineBusyPctSince(before: { busy: number; total: number }): number {
  const now = machineTicks();
  return Math.round(((now.busy - before.busy) / (now.total - before.total)) * 1000) / 10;
}
