/**
 * What this build includes, decided when Vite builds it (import.meta.env is replaced by constants,
 * so what a flag turns off is left out of the bundle). Jest maps this file to testing/buildFlags.ts.
 */

/** The UI kit's catalogue page (`/_ui`): development, and the build the tests use (VITE_UI_CATALOGUE=true). */
export const UI_CATALOGUE: boolean = import.meta.env.DEV || import.meta.env.VITE_UI_CATALOGUE === 'true';
