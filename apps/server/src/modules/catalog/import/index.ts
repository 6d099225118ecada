// `npm run import` (on its own or through the running server) and the console's upload all run runImport.
export {
  type ImportDeps,
  type ImportOptions,
  ImportRefused,
  type ImportReport,
  importBook,
  partialReportOf,
  planImport,
} from './import-book.ts';
export { UnreadablePage } from './import-pages.ts';
export { type ImportActor, type ImportRun, type ImportRunnerDeps, runImport } from './import-runner.ts';
export { ImportSourceError, readBookSource } from './import-source.ts';
