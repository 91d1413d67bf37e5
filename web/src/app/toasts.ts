/** Short notices shown in a corner (and announced to screen readers). */
import { createSlice, nanoid, type PayloadAction } from '@reduxjs/toolkit';

export interface Toast {
  id: string;
  kind: 'info' | 'error';
  text: string;
}

const toastsSlice = createSlice({
  name: 'toasts',
  initialState: [] as Toast[],
  reducers: {
    showToast: {
      reducer: (state, action: PayloadAction<Toast>) => {
        state.push(action.payload);
      },
      prepare: (toast: Omit<Toast, 'id'>) => ({ payload: { ...toast, id: nanoid() } }),
    },
    dismissToast: (state, action: PayloadAction<string>) => state.filter((t) => t.id !== action.payload),
  },
});

export const { showToast, dismissToast } = toastsSlice.actions;
export const toastsReducer = toastsSlice.reducer;
