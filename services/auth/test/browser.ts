/** The auth tests' browser is the platform's (`@wb/platform/testing`). */
export { Browser, eventually, sleep, uniqueEmail } from '@wb/platform/testing';
export type { Reply } from '@wb/platform/testing';
