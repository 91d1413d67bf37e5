/** app/buildFlags.ts under jest (which cannot read import.meta): the tests' build, catalogue included. */
export const UI_CATALOGUE = true;
