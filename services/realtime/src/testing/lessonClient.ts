/** TestClient + the lesson frames (SPEC LS*): timer, presentation, gather, for tests and the bench. */
import { decodeJson, encodeJsonFrame, lessonGatherEventSchema, lessonStateSchema, MSG, splitFrame } from '@wb/proto';
import type { LessonGatherEvent, LessonRect, LessonState, LessonTimerRequest } from '@wb/proto';
import { TestClient } from './client';

export class LessonTestClient extends TestClient {
  /** every LESSON_STATE received, in order */
  readonly states: LessonState[] = [];
  readonly gathers: LessonGatherEvent[] = [];
  onState?: (s: LessonState) => void;

  get lesson(): LessonState | undefined {
    return this.states[this.states.length - 1];
  }
  override receive(frame: Uint8Array): void {
    const { type, payload } = splitFrame(frame);
    if (type === MSG.LESSON_STATE) {
      const s = decodeJson(payload, lessonStateSchema);
      this.states.push(s);
      this.onState?.(s);
    } else if (type === MSG.LESSON_GATHER_S) this.gathers.push(decodeJson(payload, lessonGatherEventSchema));
    else super.receive(frame);
  }
  timer(req: LessonTimerRequest): void {
    this.sendRaw(encodeJsonFrame(MSG.LESSON_TIMER, req));
  }
  present(action: 'start' | 'stop'): void {
    this.sendRaw(encodeJsonFrame(MSG.LESSON_PRESENT, { action }));
  }
  gather(rect?: LessonRect): void {
    this.sendRaw(encodeJsonFrame(MSG.LESSON_GATHER, rect ?? {}));
  }
}
