/**
 * CPU profile of a deployable under benchmark (`--cpu-prof` is not allowed in NODE_OPTIONS):
 *   BENCH_NODE_OPTIONS="--require $PWD/scripts/bench/cpu-profile.cjs" make bench
 * writes <CPU_PROFILE_DIR or /tmp>/<pid>.cpuprofile when the process exits (open it in Chrome
 * DevTools or summarise its self time per function).
 */
const inspector = require('node:inspector');
const { writeFileSync } = require('node:fs');
const { join } = require('node:path');

const session = new inspector.Session();
session.connect();
session.post('Profiler.enable');
session.post('Profiler.setSamplingInterval', { interval: 200 });
session.post('Profiler.start');
process.on('exit', () => {
  // same-thread inspector sessions answer synchronously, so this completes inside 'exit'
  session.post('Profiler.stop', (err, result) => {
    if (!err)
      writeFileSync(
        join(process.env.CPU_PROFILE_DIR || '/tmp', `${process.pid}.cpuprofile`),
        JSON.stringify(result.profile),
      );
  });
});
