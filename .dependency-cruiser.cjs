// The import check (npm run check:imports, part of npm test). It reads resolved paths, so a rule holds however deep
// the importing file sits and however the import is spelled. Why dependency-cruiser: docs/decisions.md.
/** Test code (tests and their helpers) may import what it needs to set a scene. */
const TEST_CODE = '(\\.test\\.ts|\\.test-support\\.ts|-test-kit\\.ts)$';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'module-through-port',
      comment:
        'A server module reaches another module only through its index.ts (what it may call) and its <domain>.port.ts (the port\'s types); test code may reach further (docs/ARCHITECTURE.md, "Modules").',
      severity: 'error',
      from: { path: '^apps/server/src/modules/([^/]+)/', pathNot: TEST_CODE },
      to: {
        path: '^apps/server/src/modules/([^/]+)/',
        pathNot: [
          '^apps/server/src/modules/$1/',
          '^apps/server/src/modules/[^/]+/index\\.ts$',
          '^apps/server/src/modules/[^/]+/[^/]+\\.port\\.ts$',
        ],
      },
    },
    {
      name: 'ports-depend-on-nothing',
      comment:
        "A module's <domain>.port.ts holds its port and the plain types it needs: it imports other port files, shared/, db/ and packages only, so module-context.ts (which imports every port file) closes no circle.",
      severity: 'error',
      from: { path: '^apps/server/src/modules/[^/]+/[^/]+\\.port\\.ts$' },
      to: {
        path: '^apps/server/src/',
        pathNot: ['^apps/server/src/modules/[^/]+/[^/]+\\.port\\.ts$', '^apps/server/src/(shared|db)/'],
      },
    },
    {
      name: 'module-context-reads-ports-only',
      comment:
        'module-context.ts names each port by its port file, never by a module index.ts (which imports the context).',
      severity: 'error',
      from: { path: '^apps/server/src/modules/module-context\\.ts$' },
      to: {
        path: '^apps/server/src/modules/',
        pathNot: '^apps/server/src/modules/[^/]+/[^/]+\\.port\\.ts$',
      },
    },
    {
      name: 'shared-and-db-below-modules',
      comment:
        'shared/ and db/ serve the modules and the app: they never import a module, the app or a command.',
      severity: 'error',
      from: { path: '^apps/server/src/(shared|db)/', pathNot: TEST_CODE },
      to: {
        path: '^apps/server/src/(modules|cli)/|^apps/server/src/(app|main|workers|control-socket)\\.ts$',
      },
    },
    {
      name: 'drizzle-only-in-repositories',
      comment:
        'Only repositories (*.repository.ts) query the database: they alone import drizzle-orm. Besides them: db/ (the client, the schema, migrations, backup and reconcile), seed/ (the demo and scale data) and test code.',
      severity: 'error',
      from: {
        path: '^apps/server/src/',
        pathNot: ['\\.repository\\.ts$', '^apps/server/src/(db|seed)/', TEST_CODE],
      },
      to: { path: '(^|/)node_modules/drizzle-orm/' },
    },
    {
      name: 'no-circular',
      comment:
        'No import circle, type-only imports included (tsPreCompilationDeps): a circle makes load order matter and hides which part depends on which.',
      severity: 'error',
      from: { path: '^(apps|packages)/' },
      to: { circular: true },
    },
    {
      name: 'console-queries-in-repositories',
      comment:
        "A console route or service reaches the database through its repository: only *.console.repository.ts imports drizzle or the schema (docs/ARCHITECTURE.md, 'Console code').",
      severity: 'error',
      from: { path: '^apps/server/src/modules/.+[.]console[.](routes|service)[.]ts$' },
      to: { path: ['(^|/)node_modules/drizzle-orm/', '^apps/server/src/db/schema/'] },
    },
    {
      name: 'console-calls-through-the-contract',
      comment:
        "The console's screens call the server through api.ts, typed from the contract's adminRoutes; they never fetch by hand.",
      severity: 'error',
      from: { path: '^apps/admin/src/', pathNot: '^apps/admin/src/api[.]ts$' },
      to: { path: '(^|/)packages/contract/src/client[.]ts$' },
    },
    {
      name: 'no-seed-in-production',
      comment:
        'The demo library is handed in by main.ts only when it is on; the app and its modules never import seed/.',
      severity: 'error',
      from: {
        path: '^apps/server/src/',
        pathNot: ['^apps/server/src/seed/', '^apps/server/src/main\\.ts$', '\\.test\\.ts$'],
      },
      to: { path: '^apps/server/src/seed/' },
    },
    {
      name: 'feature-stays-in-its-folder',
      comment:
        'A web feature never imports another feature: what several use lives in lib/ or components/ (docs/ARCHITECTURE.md).',
      severity: 'error',
      from: { path: '^apps/web/src/features/([^/]+)/' },
      to: { path: '^apps/web/src/features/', pathNot: '^apps/web/src/features/$1/' },
    },
    {
      name: 'shared-code-below-features',
      comment: 'lib/ and components/ serve the features; they never import one.',
      severity: 'error',
      from: { path: '^apps/web/src/(lib|components)/' },
      to: { path: '^apps/web/src/features/' },
    },
    {
      name: 'console-stands-alone',
      comment:
        "The operators' console (apps/admin) talks to the server over HTTP only: it imports neither the server's code nor the reader app's.",
      severity: 'error',
      from: { path: '^apps/admin/src/' },
      to: { path: '^apps/(server|web)/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)dist/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.base.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.tsx', '.js', '.mjs'] },
  },
};
