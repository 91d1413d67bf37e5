/**
 * Live-lesson controls over the board socket (services/realtime SPEC LS1–LS11): the shared
 * countdown timer, presentation mode and "bring everyone to me". Frames are JSON; the message
 * numbers are in `MSG` (LESSON_TIMER 9, LESSON_PRESENT 30, LESSON_GATHER 31 → LESSON_STATE 40,
 * LESSON_GATHER_S 41). The node's clock is the reference: clients correct for skew with
 * `serverNow` (see `lessonRemainingMs`).
 */
import { z } from 'zod';

/**
 * The plan feature (of the BOARD OWNER's plan) that timer and presentation need (spec §6 "paid
 * plans needed for presentation mode, timer"). The plan table has no `timer`/`presentation`
 * feature; `collaborationControls` is the closest one (on for every paid plan, off on starter).
 */
export const LESSON_FEATURE = 'collaborationControls' as const;
/** a timer is at most 24 h long */
export const LESSON_MAX_TIMER_MS = 24 * 60 * 60 * 1000;
/**
 * LS2: a timer that ran out shows 00:00 (the end signal: a sound and a flash) this long, then goes
 * away for everyone (the node clears it to LESSON_IDLE_TIMER; a reload after that shows none)
 */
export const LESSON_TIMER_ENDED_SHOW_MS = 5000;
/** LS12: after a failover the presenter gets the presentation back when they reconnect within this */
export const LESSON_PRESENTER_RESUME_MS = 30_000;

const finite = z.number().finite();

/** client → server: LESSON_TIMER */
export const lessonTimerSchema = z.strictObject({
  /** `stop`: the timer goes away for everyone (idle, no length: LESSON_IDLE_TIMER), whatever its state */
  action: z.enum(['set', 'start', 'pause', 'reset', 'addMinute', 'stop']),
  /** `set` (and optionally `start`): the countdown's length */
  durationMs: z.number().int().min(1000).max(LESSON_MAX_TIMER_MS).optional(),
});
export type LessonTimerRequest = z.infer<typeof lessonTimerSchema>;
/** client → server: LESSON_PRESENT */
export const lessonPresentSchema = z.strictObject({ action: z.enum(['start', 'stop']) });
/** a world rectangle (the same numbers as an ephemeral VIEWPORT) */
export const lessonRectSchema = z.strictObject({
  x: finite,
  y: finite,
  width: finite.positive(),
  height: finite.positive(),
});
export type LessonRect = z.infer<typeof lessonRectSchema>;
/** client → server: LESSON_GATHER (owner only); without a rectangle the owner's last viewport */
export const lessonGatherSchema = z.union([lessonRectSchema, z.strictObject({})]);

export const lessonTimerStateSchema = z.object({
  state: z.enum(['idle', 'running', 'paused']),
  /** running: when it reaches zero, on the node's clock (ms since the epoch) */
  endsAt: z.number().optional(),
  /** idle/paused: what is left; running: what was left when it (re)started */
  remainingMs: z.number(),
  durationMs: z.number(),
});
export type LessonTimerState = z.infer<typeof lessonTimerStateSchema>;
export const lessonPresenterSchema = z.object({
  userId: z.number().int(),
  peerId: z.number().int(),
  name: z.string(),
  /** the presenter's last viewport, so a late joiner follows at once */
  viewport: lessonRectSchema.nullable(),
});
export type LessonPresenter = z.infer<typeof lessonPresenterSchema>;
/** server → client: LESSON_STATE (on join after WELCOME, and on every change) */
export const lessonStateSchema = z.object({
  timer: lessonTimerStateSchema,
  presenter: lessonPresenterSchema.nullable(),
  /** the owner's plan has LESSON_FEATURE (null: not known yet) */
  paid: z.boolean().nullable(),
  /** the node's clock when this frame left */
  serverNow: z.number(),
});
export type LessonState = z.infer<typeof lessonStateSchema>;
/** server → client: LESSON_GATHER_S */
export const lessonGatherEventSchema = lessonRectSchema.extend({ by: z.string() });
export type LessonGatherEvent = z.infer<typeof lessonGatherEventSchema>;

export const LESSON_IDLE_TIMER: LessonTimerState = { state: 'idle', remainingMs: 0, durationMs: 0 };

/**
 * What is left of a timer on this client: a running timer's end is on the node's clock, so
 * `serverNow` (when the state left the node) plus the local time since it arrived is the node's
 * clock now (the transit time is not corrected: it is a few ms).
 */
export function lessonRemainingMs(
  timer: LessonTimerState,
  serverNow: number,
  receivedAt: number,
  localNow: number,
): number {
  if (timer.state !== 'running' || timer.endsAt === undefined) return Math.max(0, timer.remainingMs);
  return Math.max(0, timer.endsAt - (serverNow + (localNow - receivedAt)));
}
