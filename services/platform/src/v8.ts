/**
 * V8 settings the request/response deployables (gateway, auth, boards) apply first thing in their
 * main (`@wb/platform/v8`, no other imports, so it runs before any application code allocates).
 * Not the realtime nodes: see their main.ts.
 *
 * Allocation-site pretenuring off: under a burst (the max-rate run of `make bench`), V8 saw most
 * per-request objects of some allocation sites survive a scavenge and from then on allocated
 * them straight into the old generation, for good. At a normal rate afterwards the gateway still
 * promoted ~3 KB per request, ran Mark-Compacts every few seconds and answered with p99 18.8 ms
 * at 3,500 req/s; with the flag, nothing was promoted, the longest pause was 1.7 ms and p99 was
 * 7.2 ms. The flag is read when V8 digests the feedback after each GC, so setting it at start-up
 * (before any allocation site has feedback) takes effect, which the `--trace-gc` runs confirmed.
 */
import { setFlagsFromString } from 'node:v8';

export function tuneV8(): void {
  setFlagsFromString('--no-allocation-site-pretenuring');
}
