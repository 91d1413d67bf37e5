/** Notifications (spec §3): red errors, green info, yellow warnings; gone after 7 s. */
import { createSlice, nanoid, type PayloadAction } from '@reduxjs/toolkit';

export const TOAST_DURATION_MS = 7000;

export interface Notification {
  id: string;
  type: 'info' | 'warning' | 'error';
  /** shown when the code has no translation */
  message: string;
  /** a message or notice code, translated when the locale knows it */
  code?: string;
  duration: number;
}

export type NotificationInput = Omit<Notification, 'id' | 'duration'> & { duration?: number };

const sameAs = (a: Omit<Notification, 'id'>, b: Omit<Notification, 'id'>) =>
  a.type === b.type && a.message === b.message && a.code === b.code;

const toastsSlice = createSlice({
  name: 'toasts',
  initialState: [] as Notification[],
  reducers: {
    notify: {
      reducer: (state, action: PayloadAction<Notification>) => {
        // the same message already on screen is not shown twice
        if (state.some((t) => sameAs(t, action.payload))) return;
        state.push(action.payload);
      },
      prepare: (input: NotificationInput) => ({
        payload: { ...input, id: nanoid(), duration: input.duration ?? TOAST_DURATION_MS },
      }),
    },
    dismiss: (state, action: PayloadAction<string>) => state.filter((t) => t.id !== action.payload),
  },
});

export const { notify, dismiss } = toastsSlice.actions;
export const toastsReducer = toastsSlice.reducer;
