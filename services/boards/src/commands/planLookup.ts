/**
 * Owners' plans, asked of the auth service over NATS (`plan.get` with the owner as actor) and
 * kept a few seconds: board limits and plan features are checked on every write and on every
 * guest join, and a plan changes rarely. Concurrent lookups of one owner share one request.
 * A failed lookup is not cached and fails the command (never assume a plan).
 */
import type { Bus } from '@wb/platform';
import { planSchema } from '@wb/proto';
import type { Plan } from '@wb/proto';
import type { PlanSource } from './deps';

const MAX_ENTRIES = 10_000;

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

  /** `fresh`: ask auth even when a plan is kept (the caller is applying a plan change) */
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
