/**
 * Gateway entry point. V8 settings, then tracing, before anything else is loaded (the platform's
 * rule for every deployable), then the bootstrap in server.ts runs.
 * No auto-instrumentation here: the gateway opens one server span per request itself
 * (http/observe.ts) and the bus adds the NATS client span; express's span per middleware layer
 * halved the gateway's throughput in the benchmark.
 */
import { tuneV8 } from '@wb/platform/v8';
tuneV8();
import { startTracing } from '@wb/platform/tracing';

const tracing = startTracing('gateway', { instrumentations: false });

void import('./server.js').then(({ runGateway }) => runGateway(tracing));
