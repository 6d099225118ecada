import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.ts';
import type { Database } from '../db/client.ts';
import type { BackgroundJobs } from '../shared/background-loop.ts';
import type { DiskGuard } from '../shared/disk-space.ts';
import type { CatalogPort } from './catalog/index.ts';
import type { DrawMissingImage, ImagesPort } from './images/index.ts';
import type { MetricsPort } from './metrics/index.ts';
import type { OperatorsPort } from './operators/index.ts';
import type { PaymentsPort } from './payments/index.ts';
import type { StorageModulePort } from './storage/index.ts';
import type { UsersPort } from './users/index.ts';
import type { WalletPort } from './wallet/index.ts';

/**
 * What every module's `register<Domain>(app, ctx)` is given (docs/ARCHITECTURE.md, "Modules"). The same object for
 * every module: the settings, the database, a logger, the background jobs to add loops to, and the other modules'
 * ports.
 */
export interface ModuleContext {
  config: Config;
  db: Database;
  log: FastifyBaseLogger;
  jobs: BackgroundJobs;
  /**
   * Every module's port, the only functions one module may call of another. app.ts fills it in as modules
   * register, so read a port when a call needs it (`ctx.ports.wallet.balanceOf(id)` inside a function), never
   * while registering: the module it belongs to may register later.
   */
  ports: Ports;
  /**
   * Draws the demo library's pictures on first request, for paths the database knows: handed in by main.ts only
   * when the demo library is on, so production code never loads the demo generator.
   */
  demoDrawer?: (isKnownImage: (path: string) => Promise<boolean>) => DrawMissingImage;
  /**
   * After an operator's change readers must see (a book, a price): this server drops its kept static answers and what
   * it knows of free pages; other servers follow within their 5 s (docs/scaling.md).
   */
  catalogueChanged(): void;
  /** The free space of DATA_DIR when the embedded database lives there (shared/disk-space.ts); /readyz reports it. */
  diskGuard?: DiskGuard;
}

export interface Ports {
  users: UsersPort;
  wallet: WalletPort;
  catalog: CatalogPort;
  storage: StorageModulePort;
  images: ImagesPort;
  payments: PaymentsPort;
  metrics: MetricsPort;
  operators: OperatorsPort;
}
