export * from './env';
export * from './logger';
export * from './nats';
export * from './health';
export * from './lifecycle';
export * from './sessions';
export * from './db';
export * from './outbox';
export * from './consumer';
export * from './redis';
export * from './queue';
export * from './mailer';
export * from './runtime';
export * from './listen';
// applied by connectBus; exported for connections made without it (make bench's floor)
export { coalesceNatsWrites } from './natsWrites';
export { skipSettledRequestErrors } from './natsRequests';
export * from './objectStore';
export { PlanLookup, type PlanSource } from './planLookup';
