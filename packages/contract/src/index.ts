export * from './catalog.ts';
export * from './envelope.ts';
export * from './payments.ts';
export * from './routes.ts';
export * from './rules.ts';
export * from './support.ts';
export * from './users.ts';
export * from './wallet.ts';
