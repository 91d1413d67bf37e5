export * from './errors';
export * from './plans';
export * from './settings';
export * from './subjects';
export * from './events';
export * from './auth';
export * from './boards';
export * from './realtime';
