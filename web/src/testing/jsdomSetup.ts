/// <reference types="node" />
// jsdom lacks the encoders react-router needs at import time; Node's are the same API.
import { TextDecoder, TextEncoder } from 'node:util';

Object.assign(globalThis, { TextEncoder, TextDecoder });

// jsdom has no CSS namespace; React Aria escapes selectors with CSS.escape (a plain identifier escape suffices here)
if (typeof globalThis.CSS === 'undefined')
  Object.assign(globalThis, { CSS: { escape: (s: string) => s.replace(/[^\w-]/g, (c) => `\\${c}`) } });
