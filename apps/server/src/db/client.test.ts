import { sql } from 'drizzle-orm';
import pg from 'pg';
import { expect, it } from 'vitest';
import { createTestDatabase, dbKind, describeDb, pgUrl } from '../../test/test-database.ts';
import { openDatabase } from './client.ts';

describeDb('database client', () => {
  it.skipIf(dbKind !== 'postgres')(
    'survives the server dropping its connections, and reports it',
    async () => {
      const lost: Error[] = [];
      const opened = await openDatabase({
        kind: 'postgres',
        url: pgUrl,
        poolSize: 2,
        onPoolError: (e) => lost.push(e),
      });
      try {
        await opened.db.execute(sql`select 1`);
        const admin = new pg.Client({ connectionString: pgUrl });
        await admin.connect();
        const pids = await opened.db.execute(sql`select pg_backend_pid() as pid`);
        const pid = (pids as unknown as { rows: { pid: number }[] }).rows[0]?.pid;
        await admin.query('select pg_terminate_backend($1)', [pid]);
        await admin.end();
        await expect.poll(() => lost.length, { timeout: 5000 }).toBeGreaterThan(0);
        const again = await opened.db.execute(sql`select 2 as two`);
        expect((again as unknown as { rows: { two: number }[] }).rows[0]?.two).toBe(2);
      } finally {
        await opened.close();
      }
    },
  );

  it('migrates a new database to the current schema', async () => {
    const opened = await createTestDatabase();
    try {
      const tables = await opened.db.execute(
        sql`select table_name as name from information_schema.tables where table_schema = 'public' order by 1`,
      );
      expect((tables as unknown as { rows: { name: string }[] }).rows.map((r) => r.name)).toEqual([
        ...[
          'ads',
          'audit_log',
          'book_counts',
          'book_pinyin_keys',
          'book_postings',
          'book_unlock_rules',
          'books',
          'branch_settings',
        ],
        ...['card_claims', 'card_days', 'card_rewards', 'categories'],
        ...[
          'chapter_lists',
          'chapter_purchases',
          'chapter_unlocks',
          'chapters',
          'checkin_claims',
          'checkin_rewards',
          'contacts',
          'dashboard_chapter_days',
          'dashboard_days',
          'dashboard_funnel_days',
          'dashboard_summary_days',
          'dashboard_unlock_days',
          'follows',
          'handoff_tokens',
          'hot_words',
          'image_assets',
          'import_jobs',
        ],
        ...['ledger_accounts', 'ledger_entries', 'ledger_transfers', 'monthly_cards'],
        ...['notice_consents', 'notice_outbox', 'notice_push_events', 'operator_sessions', 'operators'],
        ...['pay_channels', 'pay_configs', 'pay_order_events', 'pay_orders', 'pay_refunds'],
        ...[
          'rate_limits',
          'reader_days',
          'reading_progress',
          'reading_tickets',
          'report_notes',
          'reports',
          'sandbox_payments',
        ],
        ...['sandbox_refunds', 'search_terms', 'sessions', 'showcase_entries', 'unlock_campaigns'],
        'unlock_wait_clocks',
        ...['users', 'vip_adjustments', 'visit_marks', 'wechat_openids'],
      ]);
      // Migration 0002 creates the ledger's system accounts; 0018 the operators' adjustments.
      const system = await opened.db.execute(sql`select code from ledger_accounts order by code`);
      expect((system as unknown as { rows: { code: string }[] }).rows.map((r) => r.code)).toEqual([
        'system:adjustments',
        'system:bonus',
        'system:payments',
        'system:sales',
      ]);
      // Migration 0003 creates the ledger's purchase function.
      const fn = await opened.db.execute(
        sql`select to_regprocedure('ledger_buy_chapter(int, int, int)')::text as name`,
      );
      expect((fn as unknown as { rows: { name: string | null }[] }).rows[0]?.name).toBe(
        'ledger_buy_chapter(integer,integer,integer)',
      );
    } finally {
      await opened.close();
    }
  });
});
