// `npm run import` and the console's upload (later) run this: read PATH, then import it.
export {
  type ImportDeps,
  type ImportOptions,
  ImportRefused,
  type ImportReport,
  importBook,
  planImport,
} from './import-book.ts';
export { UnreadablePage } from './import-pages.ts';
export { ImportSourceError, readBookSource } from './import-source.ts';
