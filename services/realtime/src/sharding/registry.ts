/**
 * Live-node registry and board leases in Redis (SPEC R1–R5):
 *   <prefix>rt:nodes          sorted set node id → last heartbeat (ms)
 *   <prefix>rt:node:<id>      {nodeId, url}, expires after the heartbeat TTL
 *   <prefix>rt:lease:<board>  "<node id> <token>", SET NX PX, renewed by the owner
 *   <prefix>rt:fence:<board>  INCR: fencing tokens, strictly increasing per board
 */
import type { Redis } from 'ioredis';
import { parseLease, realtimeKeys, rendezvousOwner } from '@wb/proto';
import type { Clock } from '../room/room';

const RENEW_LUA = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('PEXPIRE', KEYS[1], ARGV[2]) else return 0 end`;
const RELEASE_LUA = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) else return 0 end`;
/** replace the lease only if it still holds the value we judged stale */
const TAKEOVER_LUA = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3]) else return false end`;

export interface RegistryOptions {
  redis: Redis;
  prefix: string;
  nodeId: string;
  /** where the gateway reaches this node's ws server, e.g. ws://127.0.0.1:4100 */
  url: string | (() => string);
  clock: Clock;
  /** a node whose last heartbeat is older is dead (default 6000) */
  nodeTtlMs?: number;
  /** board lease duration (default 10000) */
  leaseMs?: number;
}

export type Route = { kind: 'mine' } | { kind: 'elsewhere'; nodeId: string } | { kind: 'none' };

export class NodeRegistry {
  private readonly keys;
  readonly nodeTtlMs: number;
  readonly leaseMs: number;
  constructor(private readonly opts: RegistryOptions) {
    this.keys = realtimeKeys(opts.prefix);
    this.nodeTtlMs = opts.nodeTtlMs ?? 6000;
    this.leaseMs = opts.leaseMs ?? 10_000;
  }
  get nodeId(): string {
    return this.opts.nodeId;
  }

  async heartbeat(): Promise<void> {
    const now = this.opts.clock.now();
    await this.opts.redis
      .multi()
      .zadd(this.keys.nodes, now, this.opts.nodeId)
      .set(
        this.keys.node(this.opts.nodeId),
        JSON.stringify({
          nodeId: this.opts.nodeId,
          url: typeof this.opts.url === 'string' ? this.opts.url : this.opts.url(),
        }),
        'PX',
        this.nodeTtlMs,
      )
      .zremrangebyscore(this.keys.nodes, '-inf', now - 10 * this.nodeTtlMs)
      .exec();
  }
  async deregister(): Promise<void> {
    await this.opts.redis.multi().zrem(this.keys.nodes, this.opts.nodeId).del(this.keys.node(this.opts.nodeId)).exec();
  }
  async liveNodes(): Promise<string[]> {
    return this.opts.redis.zrangebyscore(this.keys.nodes, this.opts.clock.now() - this.nodeTtlMs, '+inf');
  }
  private async isLive(nodeId: string): Promise<boolean> {
    const beat = await this.opts.redis.zscore(this.keys.nodes, nodeId);
    return beat !== null && Number(beat) >= this.opts.clock.now() - this.nodeTtlMs;
  }

  /**
   * R3: the lease holder owns the board; without a lease — or when its holder has stopped
   * heartbeating (R6) — the rendezvous choice among live nodes (this one counted as live) should
   * take it.
   */
  async route(boardId: string): Promise<Route> {
    const lease = parseLease(await this.opts.redis.get(this.keys.lease(boardId)));
    if (lease?.nodeId === this.opts.nodeId) return { kind: 'mine' };
    if (lease && (await this.isLive(lease.nodeId))) return { kind: 'elsewhere', nodeId: lease.nodeId };
    const live = new Set(await this.liveNodes());
    live.add(this.opts.nodeId);
    const preferred = rendezvousOwner(boardId, [...live]);
    if (!preferred) return { kind: 'none' };
    return preferred === this.opts.nodeId ? { kind: 'mine' } : { kind: 'elsewhere', nodeId: preferred };
  }

  /**
   * R4: take the lease; returns the fencing token, or null when a live node holds it.
   * R6: the lease of a node that stopped heartbeating is taken over at once instead of waiting
   * for it to expire (compare-and-set on the value judged stale, so two takers cannot both win);
   * should that node only have been paused, fencing (F1–F2) rejects its late writes.
   */
  async acquire(boardId: string): Promise<number | null> {
    const value = await this.opts.redis.get(this.keys.lease(boardId));
    const current = parseLease(value);
    if (current?.nodeId === this.opts.nodeId) return current.token;
    if (current && (await this.isLive(current.nodeId))) return null;
    const token = await this.opts.redis.incr(this.keys.fence(boardId));
    const mine = `${this.opts.nodeId} ${token}`;
    const ok = current
      ? await this.opts.redis.eval(TAKEOVER_LUA, 1, this.keys.lease(boardId), value!, mine, String(this.leaseMs))
      : await this.opts.redis.set(this.keys.lease(boardId), mine, 'PX', this.leaseMs, 'NX');
    return ok === 'OK' ? token : null;
  }
  /** false when the lease was lost (expired and taken, or deleted) */
  async renew(boardId: string, token: number): Promise<boolean> {
    const r = await this.opts.redis.eval(
      RENEW_LUA,
      1,
      this.keys.lease(boardId),
      `${this.opts.nodeId} ${token}`,
      String(this.leaseMs),
    );
    return r === 1;
  }
  async release(boardId: string, token: number): Promise<void> {
    await this.opts.redis.eval(RELEASE_LUA, 1, this.keys.lease(boardId), `${this.opts.nodeId} ${token}`);
  }
}
