import { type Static, Type } from 'typebox';
import {
  adminRoute,
  Binary,
  ConsolePage,
  ConsolePageQuery,
  FormText,
  IdParams,
  Instant,
  Nullable,
} from './common.ts';

export const IMPORT_OUTCOMES = ['added', 'unchanged', 'replaced', 'planned'] as const;
export type ImportOutcome = (typeof IMPORT_OUTCOMES)[number];

export const ImportJob = Type.Object({
  id: Type.Integer(),
  fileName: Type.String(),
  /** queued: waiting for its server (or for its server to come back); running: pages being imported. */
  state: Type.Union([
    Type.Literal('queued'),
    Type.Literal('running'),
    Type.Literal('done'),
    Type.Literal('failed'),
  ]),
  pagesDone: Type.Integer(),
  pagesTotal: Type.Integer(),
  message: Nullable(Type.String()),
  bookId: Nullable(Type.Integer()),
  title: Nullable(Type.String()),
  dryRun: Type.Boolean(),
  chapters: Type.Array(
    Type.Object({
      number: Type.Integer(),
      title: Type.String(),
      pages: Type.Integer(),
      price: Type.Integer(),
      outcome: Type.Union([
        Type.Literal('added'),
        Type.Literal('unchanged'),
        Type.Literal('replaced'),
        Type.Literal('planned'),
      ]),
    }),
  ),
  operatorName: Type.String(),
  createdAt: Instant,
  finishedAt: Nullable(Instant),
});
export type ImportJob = Static<typeof ImportJob>;

/** The upload form's fields (the command line's flags); the server reads and checks them itself. */
export const ImportForm = Type.Object({
  file: Binary,
  title: Type.Optional(FormText),
  bookId: Type.Optional(FormText),
  freeChapters: Type.Optional(FormText),
  price: Type.Optional(FormText),
  vipFree: Type.Optional(FormText),
  replace: Type.Optional(FormText),
  dryRun: Type.Optional(FormText),
});

export const importsRoutes = {
  startImport: adminRoute({
    method: 'POST',
    url: '/api/admin/imports',
    summary:
      '上传导入（multipart：file 为 .cbz/.zip；可选 title、bookId、freeChapters、price、vipFree、replace、dryRun）',
    multipart: ImportForm,
    status: 202,
    data: Type.Object({ import: ImportJob }),
  }),
  imports: adminRoute({
    method: 'GET',
    url: '/api/admin/imports',
    summary: '导入记录',
    querystring: Type.Object(ConsolePageQuery),
    data: ConsolePage(ImportJob),
  }),
  importJob: adminRoute({
    method: 'GET',
    url: '/api/admin/imports/:id',
    summary: '一次导入的进度与结果',
    params: IdParams,
    refusals: [404],
    data: Type.Object({ import: ImportJob }),
  }),
} as const;
