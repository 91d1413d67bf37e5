/** `npm install` when node_modules is missing or the lockfile / a package.json changed. */
import { ensureInstalled } from './lib/install';
import { describeError, log } from './lib/log';

ensureInstalled().catch((err: unknown) => {
  log.error(describeError(err));
  process.exit(1);
});
