export * from './grid-error';
export * from './request-errors';
export * from './auth-errors';
export * from './cache-errors';
export * from './config-errors';
export * from './encoding-errors';
export * from './user-errors';
export * from './counter-errors';
