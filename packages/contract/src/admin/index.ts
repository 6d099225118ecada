// Every console call (/api/admin/), once: the server registers its routes from these entries and the console's
// client (apps/admin/src/api.ts) takes its types from them. Tagged admin in the OpenAPI document.
import { auditRoutes } from './audit.ts';
import { booksRoutes } from './books.ts';
import { campaignsRoutes } from './campaigns.ts';
import { cardConsoleRoutes } from './card.ts';
import { checkinConsoleRoutes } from './checkin.ts';
import { dashboardRoutes } from './dashboard.ts';
import { homeRoutes } from './home.ts';
import { importsRoutes } from './imports.ts';
import { ordersRoutes } from './orders.ts';
import { packsRoutes } from './packs.ts';
import { readerCareRoutes, readersRoutes } from './readers.ts';
import { sessionRoutes } from './session.ts';
import { supportRoutes } from './support.ts';
import { unlockConsoleRoutes } from './unlocks.ts';

export * from './audit.ts';
export * from './books.ts';
export * from './campaigns.ts';
export * from './card.ts';
export * from './checkin.ts';
export * from './common.ts';
export * from './dashboard.ts';
export * from './dashboard-retention.ts';
export * from './home.ts';
export * from './imports.ts';
export * from './orders.ts';
export * from './packs.ts';
export * from './readers.ts';
export * from './session.ts';
export * from './support.ts';
export * from './unlocks.ts';

export const adminRoutes = {
  ...sessionRoutes,
  ...auditRoutes,
  ...booksRoutes,
  ...importsRoutes,
  ...homeRoutes,
  ...ordersRoutes,
  ...supportRoutes,
  ...readersRoutes,
  ...readerCareRoutes,
  ...packsRoutes,
  ...unlockConsoleRoutes,
  ...dashboardRoutes,
  ...campaignsRoutes,
  ...checkinConsoleRoutes,
  ...cardConsoleRoutes,
} as const;
export type AdminRoutes = typeof adminRoutes;
export type AdminRouteName = keyof AdminRoutes;
