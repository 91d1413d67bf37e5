/**
 * Test harness for integration tests against the real PostgreSQL, NATS and Redis, isolated per
 * run: a fresh database, a unique NATS prefix (subjects + stream), a unique Redis prefix.
 */
export * from './stack';
export * from './smtp';
export * from './otlp';
export * from './browser';
export * from './localS3';
export * from './fakeServices';
export * from './wait';
export * from './plans';
