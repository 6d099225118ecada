export * from './catalog.ts';
export * from './images.ts';
export * from './limits.ts';
export * from './operators.ts';
export * from './payments.ts';
export * from './support.ts';
export * from './users.ts';
export * from './wallet.ts';
