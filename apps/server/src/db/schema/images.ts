import { integer, pgTable, text } from 'drizzle-orm/pg-core';

// Known size of every source image, so clients can reserve space before an image loads (no layout shift).
export const imageAssets = pgTable('image_assets', {
  path: text().primaryKey(),
  width: integer().notNull(),
  height: integer().notNull(),
});
