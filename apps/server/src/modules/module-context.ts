import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.ts';
import type { Database } from '../db/client.ts';
import type { BackgroundJobs } from '../shared/background-loop.ts';
import type { DiskGuard } from '../shared/disk-space.ts';
import type { MemoryAccount } from '../shared/memory-account.ts';
// Only the modules' port files, which import no module code: no module's index.ts is imported here, so modules that
// import the context form no circle with it (docs/ARCHITECTURE.md, "Modules").
import type { CatalogPort } from './catalog/catalog.port.ts';
import type { DrawMissingImage, ImagesPort } from './images/images.port.ts';
import type { ImporterPort } from './importer/importer.port.ts';
import type { MetricsPort } from './metrics/metrics.port.ts';
import type { NoticesPort } from './notices/notices.port.ts';
import type { OperatorsPort } from './operators/operators.port.ts';
import type { PaymentsPort } from './payments/payments.port.ts';
import type { SandboxPort } from './sandbox/sandbox.port.ts';
import type { StorageModulePort } from './storage/storage.port.ts';
import type { UsersPort } from './users/users.port.ts';
import type { WalletPort } from './wallet/wallet.port.ts';

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
  /** The memory bound and the in-memory caches, each bounded by bytes: a module adds its caches, /metrics shows them. */
  memory: MemoryAccount;
}

export interface Ports {
  users: UsersPort;
  wallet: WalletPort;
  catalog: CatalogPort;
  importer: ImporterPort;
  storage: StorageModulePort;
  images: ImagesPort;
  payments: PaymentsPort;
  sandbox: SandboxPort;
  metrics: MetricsPort;
  notices: NoticesPort;
  operators: OperatorsPort;
}
