/**
 * Domain events: the envelope every event on the stream has, and the catalogue of event types
 * with their payload schemas. Event type = "<service>.<entity>.<verb>.v<N>"; subject = "evt." + type.
 */
import { z } from 'zod';
import { PLAN_NAMES } from './plans';
import { BOARD_BACKGROUNDS, BOARD_PERMISSIONS, ROLES } from './settings';

export interface EventEnvelope<T = unknown> {
  /** outbox id; also the JetStream Nats-Msg-Id, so a re-published event is de-duplicated */
  id: string;
  type: string;
  occurredAt: string;
  data: T;
}

/** One collaboration span checkpoint (realtime.collaboration.span.v1 and boards collaboration.checkpoint). */
export const collaborationSpanSchema = z.object({
  /** unique per span (a room's sessionId + the span's start) */
  spanId: z.string().min(1).max(300),
  sessionId: z.string().min(1).max(200),
  ownerId: z.number().int(),
  boardId: z.string().min(1).max(300),
  /** ISO times; `to` ≥ `from`. A span crossing Monday 00:00 UTC is split there by boards */
  from: z.iso.datetime({ offset: true }),
  to: z.iso.datetime({ offset: true }),
  /** the last checkpoint of the span (people left, the room closed or the minutes ran out) */
  final: z.boolean().optional(),
});
export type CollaborationSpan = z.infer<typeof collaborationSpanSchema>;

export const EVENT_SCHEMAS = {
  'auth.user.created.v1': z.object({ userId: z.number().int(), email: z.string(), name: z.string() }),
  'auth.user.email_verified.v1': z.object({ userId: z.number().int(), email: z.string() }),
  'auth.user.role_changed.v1': z.object({
    userId: z.number().int(),
    role: z.enum(ROLES),
    previousRole: z.enum(ROLES).nullable(),
  }),
  'auth.user.terminated.v1': z.object({ userId: z.number().int() }),
  /** the user's effective plan changed (effectivePlanName over their plan sources) */
  'auth.user.plan_changed.v1': z.object({
    userId: z.number().int(),
    plan: z.enum(PLAN_NAMES),
    previousPlan: z.enum(PLAN_NAMES),
  }),

  // billing service: what a user's own subscription gives them (a plan source of auth's)
  /**
   * plan = the subscription's plan while it is active (trial, paid, cancelled but paid up), else
   * null; seats = the licences it pays for (a team's size when the plan has the team feature)
   */
  'billing.subscription.changed.v1': z.object({
    userId: z.number().int(),
    subscriptionId: z.string(),
    plan: z.enum(PLAN_NAMES).nullable(),
    seats: z.number().int().min(0),
  }),
  /**
   * the billing form of a checkout the provider accepted (spec §3 "Billing form"): the paying
   * organisation and its address; teams keeps them as the owner's business details (the team's
   * name is the organisation's). vat_nr is '' when none was given.
   */
  'billing.customer.changed.v1': z.object({
    userId: z.number().int(),
    company: z.string(),
    first_name: z.string(),
    last_name: z.string(),
    email: z.string(),
    country_code: z.string(),
    city_region: z.string(),
    postal_code: z.string(),
    street_address: z.string(),
    extended_address: z.string(),
    vat_nr: z.string(),
  }),

  // teams service: what a licence in a team gives its holder (a plan source of auth's)
  /** plan = the team's plan while the user holds an active licence in it, else null */
  'teams.licence.changed.v1': z.object({
    userId: z.number().int(),
    businessId: z.number().int(),
    plan: z.enum(PLAN_NAMES).nullable(),
  }),
  /**
   * a business was closed (by its owner, or because the owner's account was terminated): every
   * licence ended; subscriptionId = the owner's subscription that paid for it (billing cancels it)
   */
  'teams.business.closed.v1': z.object({
    businessId: z.number().int(),
    ownerId: z.number().int(),
    subscriptionId: z.string(),
    reason: z.enum(['owner', 'owner_terminated']),
  }),

  // boards service: board metadata (content belongs to the realtime nodes)
  'boards.board.created.v1': z.object({
    boardId: z.string(),
    ownerId: z.number().int(),
    title: z.string(),
    folderId: z.number().int().nullable(),
    background: z.enum(BOARD_BACKGROUNDS),
    defaultPermission: z.enum(BOARD_PERMISSIONS),
    deleteOwnOnly: z.boolean(),
    /** a course copy (board.duplicate): its source board; absent on boards made by their owner */
    copiedFrom: z.string().optional(),
  }),
  'boards.board.renamed.v1': z.object({
    boardId: z.string(),
    ownerId: z.number().int(),
    title: z.string(),
    previousTitle: z.string(),
  }),
  'boards.board.trashed.v1': z.object({
    boardId: z.string(),
    ownerId: z.number().int(),
    trashedAt: z.string(),
    trashedCount: z.number().int(),
  }),
  'boards.board.restored.v1': z.object({ boardId: z.string(), ownerId: z.number().int() }),
  /** gone for good: the realtime side deletes the board's content */
  'boards.board.purged.v1': z.object({
    boardId: z.string(),
    ownerId: z.number().int(),
    reason: z.enum(['owner', 'expired', 'owner_terminated']),
  }),
  'boards.board.moved.v1': z.object({
    boardId: z.string(),
    ownerId: z.number().int(),
    folderId: z.number().int().nullable(),
    previousFolderId: z.number().int().nullable(),
  }),
  /** the default permission changed (grant null) or one user's explicit grant changed (grant set; permission null = removed) */
  'boards.board.permissions_changed.v1': z.object({
    boardId: z.string(),
    ownerId: z.number().int(),
    defaultPermission: z.enum(BOARD_PERMISSIONS),
    grant: z.object({ userId: z.number().int(), permission: z.enum(BOARD_PERMISSIONS).nullable() }).nullable(),
  }),
  'boards.board.settings_changed.v1': z.object({
    boardId: z.string(),
    ownerId: z.number().int(),
    background: z.enum(BOARD_BACKGROUNDS),
    deleteOwnOnly: z.boolean(),
  }),
  'boards.folder.created.v1': z.object({ folderId: z.number().int(), ownerId: z.number().int(), name: z.string() }),
  'boards.folder.renamed.v1': z.object({ folderId: z.number().int(), ownerId: z.number().int(), name: z.string() }),
  /** its boards became unsorted (no per-board moved events) */
  'boards.folder.deleted.v1': z.object({
    folderId: z.number().int(),
    ownerId: z.number().int(),
    boardIds: z.array(z.string()),
  }),

  // courses service (issue 29): for insights and search
  'courses.course.created.v1': z.object({ courseId: z.number().int(), ownerId: z.number().int(), name: z.string() }),
  'courses.course.renamed.v1': z.object({
    courseId: z.number().int(),
    ownerId: z.number().int(),
    name: z.string(),
    previousName: z.string(),
  }),
  /** reason: the owner deleted it, or the owner's account was terminated */
  'courses.course.deleted.v1': z.object({
    courseId: z.number().int(),
    ownerId: z.number().int(),
    reason: z.enum(['owner', 'owner_terminated']),
  }),
  'courses.participant.joined.v1': z.object({
    courseId: z.number().int(),
    ownerId: z.number().int(),
    userId: z.number().int(),
  }),
  /** reason: left by themselves, removed by the owner, or their account was terminated */
  'courses.participant.left.v1': z.object({
    courseId: z.number().int(),
    ownerId: z.number().int(),
    userId: z.number().int(),
    reason: z.enum(['left', 'removed', 'terminated']),
  }),
  /** a participant reached a progress mark on an item for the first time */
  'courses.item.completed.v1': z.object({
    courseId: z.number().int(),
    itemId: z.number().int(),
    userId: z.number().int(),
    kind: z.enum(['board', 'file', 'notes', 'link', 'video', 'test']),
    mark: z.enum(['viewed', 'drew', 'submitted']),
  }),

  // realtime nodes: collaboration time (insights, plan limits). A session is one room being open
  // on one node (from first join to eviction or hand-over).
  'realtime.session.started.v1': z.object({
    sessionId: z.string(),
    boardId: z.string(),
    ownerId: z.number().int(),
    nodeId: z.string(),
    startedAt: z.string(),
    /** the board's title when the session started (insights show it; optional: older events) */
    boardTitle: z.string().optional(),
  }),
  'realtime.session.ended.v1': z.object({
    sessionId: z.string(),
    boardId: z.string(),
    ownerId: z.number().int(),
    startedAt: z.string(),
    endedAt: z.string(),
    durationMs: z.number().int(),
    /** distinct users (guests count once each connection) */
    participants: z.number().int(),
    // insights (spec §3 "per session"); optional: events of older nodes lack them
    boardTitle: z.string().optional(),
    /** summed over every participant connection of the session */
    activeMinutes: z.number().optional(),
    hiddenMinutes: z.number().optional(),
    /** collaboration time of the session (≥ 2 people on the board; what the weekly minutes count) */
    collaborationMs: z.number().int().optional(),
  }),
  /** one per participant connection when it leaves (or the session ends) */
  'realtime.participant.minutes.v1': z.object({
    sessionId: z.string(),
    boardId: z.string(),
    ownerId: z.number().int(),
    userId: z.number().int(),
    guest: z.boolean(),
    joinedAt: z.string(),
    leftAt: z.string(),
    activeMinutes: z.number(),
    hiddenMinutes: z.number(),
    // insights (spec §3 "per participant"); optional: events of older nodes lack them
    /** `u<userId>` for a user; `g:<name, trimmed, lower case>` for a guest (same name → same key) */
    participantKey: z.string().optional(),
    /** display name (a user's name, or the name the guest typed) */
    name: z.string().optional(),
    boardTitle: z.string().optional(),
    role: z.enum(['owner', 'editor', 'viewer']).optional(),
  }),
  /**
   * A checkpoint of one collaboration span (≥ 2 people on a board; SPEC T4): emitted every few
   * seconds while it lasts and once when it ends. The same spanId with a later `to` supersedes
   * the earlier one (boards keeps GREATEST(to)), so redelivery never counts twice.
   */
  'realtime.collaboration.span.v1': collaborationSpanSchema,
  /**
   * A board's dashboard preview (WebP) was stored by its realtime node; `version` is the journal
   * seq it shows (grows with edits). Boards keeps the highest per board for the board list.
   */
  'realtime.board.previewed.v1': z.object({ boardId: z.string(), version: z.number().int().positive() }),
} as const;
export type EventType = keyof typeof EVENT_SCHEMAS;
export type EventData<T extends EventType> = z.infer<(typeof EVENT_SCHEMAS)[T]>;
