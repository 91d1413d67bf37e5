/**
 * Graceful shutdown: on SIGTERM/SIGINT run the registered steps in reverse order of registration
 * (so: mark not ready → stop taking requests → finish in-flight work → drain NATS → close pools),
 * each bounded by a timeout, then exit 0 (1 if a step failed).
 *
 * Register in start-up order (pools first, health server last) and the reverse order falls out.
 * A second signal while shutting down exits at once (an operator pressing Ctrl-C twice, or
 * Kubernetes after its grace period). An uncaught exception or unhandled rejection is logged as
 * fatal and shuts down with exit code 1: the process state is unknown, a restart is safer.
 */
import type { Logger } from './logger';

export interface Lifecycle {
  onShutdown(name: string, step: () => Promise<void>): void;
  /** run every step once (later calls return the same promise), then exit; exitCode forces 1 */
  shutdown(reason: string, exitCode?: number): Promise<void>;
}

export interface LifecycleOptions {
  /** per-step limit (default 10 000 ms); a step that exceeds it counts as failed */
  stepTimeoutMs?: number;
  /** install SIGTERM/SIGINT/uncaughtException/unhandledRejection handlers (default true) */
  handleSignals?: boolean;
  /** how to end the process (default process.exit); tests inject a fake */
  exit?: (code: number) => void;
}

const SIGNALS: NodeJS.Signals[] = ['SIGTERM', 'SIGINT'];

export function createLifecycle(log: Logger, opts: LifecycleOptions = {}): Lifecycle {
  const stepTimeoutMs = opts.stepTimeoutMs ?? 10_000;
  const exit = opts.exit ?? ((code: number) => process.exit(code));
  const handleSignals = opts.handleSignals ?? true;
  const steps: { name: string; step: () => Promise<void> }[] = [];
  let running: Promise<void> | undefined;

  async function runStep(name: string, step: () => Promise<void>): Promise<boolean> {
    const started = Date.now();
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        // Promise.resolve().then: a step that throws synchronously is a failed step, not a crash.
        Promise.resolve().then(step),
        new Promise<never>((_, reject) => {
          // Not unref'd: a hung step must still end in a logged timeout, not a silent exit.
          timer = setTimeout(() => reject(new Error(`timed out after ${stepTimeoutMs} ms`)), stepTimeoutMs);
        }),
      ]);
      log.info({ step: name, ms: Date.now() - started }, `shutdown step done: ${name}`);
      return true;
    } catch (err) {
      log.error({ step: name, err, ms: Date.now() - started }, `shutdown step failed: ${name}`);
      return false;
    } finally {
      clearTimeout(timer);
    }
  }

  const onSignal = (signal: NodeJS.Signals): void => {
    if (running) {
      log.warn({ signal }, 'second signal during shutdown: exiting now');
      exit(1);
      return;
    }
    void lifecycle.shutdown(signal);
  };
  const onUncaught = (err: unknown): void => {
    log.fatal({ err }, 'uncaught exception');
    void lifecycle.shutdown('uncaughtException', 1);
  };
  const onUnhandled = (reason: unknown): void => {
    log.fatal({ err: reason }, 'unhandled promise rejection');
    void lifecycle.shutdown('unhandledRejection', 1);
  };
  function detach(): void {
    if (!handleSignals) return;
    for (const s of SIGNALS) process.off(s, onSignal);
    process.off('uncaughtException', onUncaught);
    process.off('unhandledRejection', onUnhandled);
  }

  const lifecycle: Lifecycle = {
    onShutdown(name, step) {
      if (running) {
        // A resource opened while shutting down (signal during start-up): the process is exiting anyway.
        log.warn({ step: name }, 'shutdown step registered after shutdown started: ignored');
        return;
      }
      steps.push({ name, step });
    },
    shutdown(reason, exitCode) {
      running ??= (async () => {
        log.info({ reason, steps: steps.length }, 'shutting down');
        let failed = exitCode !== undefined && exitCode !== 0;
        for (const { name, step } of [...steps].reverse()) {
          if (!(await runStep(name, step))) failed = true;
        }
        const code = failed ? 1 : 0;
        log.info({ reason, code }, 'shutdown complete');
        detach();
        exit(code);
      })();
      return running;
    },
  };

  if (handleSignals) {
    for (const s of SIGNALS) process.on(s, onSignal);
    process.on('uncaughtException', onUncaught);
    process.on('unhandledRejection', onUnhandled);
  }
  return lifecycle;
}
