export * from './catalog.ts';
export * from './envelope.ts';
export * from './support.ts';
export * from './users.ts';
