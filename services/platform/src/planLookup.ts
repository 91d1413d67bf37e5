/**
 * Users' plans, asked of the auth service over NATS (`plan.get` with that user as actor) and
 * kept a few seconds: limits and plan features are checked on every write (boards) and every
 * upload (files), and a plan changes rarely. Concurrent lookups of one user share one request.
 * A failed lookup is not cached and fails the command (never assume a plan). `listenForChanges`
 * forgets a user's plan the moment auth announces a change (core NATS, at most once; the TTL
 * bounds a lost message).
 */
import { EVENT_SCHEMAS, eventSubject, planSchema } from '@wb/proto';
import type { Plan } from '@wb/proto';
import { z } from 'zod';
import { subscribeBroadcast } from './nats';
import type { Bus } from './nats';

const MAX_ENTRIES = 10_000;
const planChangedEnvelope = z.object({ data: EVENT_SCHEMAS['auth.user.plan_changed.v1'] });

/** What commands need of plans (tests give a fake). */
export interface PlanSource {
  /** `fresh`: ask auth even when a plan is kept (the caller is applying a plan change) */
  planOf(userId: number, opts?: { fresh?: boolean }): Promise<Plan>;
}

export class PlanLookup implements PlanSource {
  private readonly cache = new Map<number, { plan: Plan; until: number }>();
  private readonly pending = new Map<number, Promise<Plan>>();

  constructor(
    private readonly bus: Pick<Bus, 'request'>,
    private readonly ttlMs: number,
    private readonly clock: () => number = Date.now,
  ) {}

  /** drop what is kept for `userId` (their plan changed: auth.user.plan_changed.v1) */
  forget(userId: number): void {
    this.cache.delete(userId);
  }

  /** every replica forgets a user's kept plan as soon as auth announces a change */
  listenForChanges(bus: Bus): { unsubscribe(): void } {
    return subscribeBroadcast(bus, eventSubject(bus.prefix, 'auth.user.plan_changed.v1'), (data) => {
      const event = planChangedEnvelope.safeParse(data);
      if (event.success) this.forget(event.data.data.userId);
    });
  }

  async planOf(userId: number, opts: { fresh?: boolean } = {}): Promise<Plan> {
    if (opts.fresh) this.cache.delete(userId);
    const hit = this.cache.get(userId);
    if (hit && hit.until > this.clock()) return hit.plan;
    let p = this.pending.get(userId);
    if (!p) {
      p = this.fetch(userId).finally(() => this.pending.delete(userId));
      this.pending.set(userId, p);
    }
    return p;
  }

  private async fetch(userId: number): Promise<Plan> {
    const reply = await this.bus.request('auth', 'plan.get', {}, { userId });
    const plan = planSchema.parse(reply.data);
    if (this.ttlMs > 0) {
      if (this.cache.size >= MAX_ENTRIES) this.cache.clear();
      this.cache.set(userId, { plan, until: this.clock() + this.ttlMs });
    }
    return plan;
  }
}
