-- No schema change: drizzle-kit's generated part is empty (`generate --custom`).
--
-- Hand-written: a chapter unlock (wait-for-free, ticket, coins) as one function, `unlock_chapter`, called by one
-- statement (apps/server/src/modules/wallet/unlocks.repository.ts, docs/decisions.md "Unlocks in one function"),
-- as purchases call `ledger_buy_chapter` (migrations 0003, 0023). Before, the server sent ~8 statements in a
-- transaction (begin, lock, chapter and rules, held, clock or ticket, spend, store, restart, commit).
--
-- The rules the function decides with are SQL functions of their own, which the server's other statements call
-- too (the chapter list's marks, the unlock options, the bundle, the purchase's price, the may-read check), so each
-- rule is written once. Each is `LANGUAGE sql STABLE`, not STRICT, returning a set: PostgreSQL inlines such a
-- function called in FROM into the calling statement (inline_set_returning_function), so the plans are those of the
-- SQL written out in place; a scalar SQL function with a subquery is never inlined and would run per row.
--
-- unlock_campaigns_live: the campaigns live for the reader on the chapter now: now() in [starts_at, ends_at), the
-- chapter named (or the whole book), for everyone or for the reader's promotion branch (the account's stored one;
-- `p_user` null, a visitor: campaigns for everyone).
CREATE OR REPLACE FUNCTION unlock_campaigns_live(p_user int, p_book int, p_chapter int)
RETURNS SETOF unlock_campaigns
LANGUAGE sql STABLE AS $$
  select k.* from unlock_campaigns k
  where k.book_id = p_book and k.starts_at <= now() and k.ends_at > now()
    and (k.chapter_ids is null or p_chapter = any(k.chapter_ids))
    and (k.branch_id is null or k.branch_id = (select u.branch_id from users u where u.id = p_user))
$$;
--> statement-breakpoint
-- chapter_price_now: the coin price the reader is shown and charged for the chapter now: its price less the largest
-- live discount for them, rounded down, never below 1 coin for a priced chapter (a free one stays free).
CREATE OR REPLACE FUNCTION chapter_price_now(p_user int, p_book int, p_chapter int, p_price int)
RETURNS TABLE (price int)
LANGUAGE sql STABLE AS $$
  select (case when p_price = 0 then p_price else greatest(1,
    p_price * (100 - coalesce((select max(k.discount_percent) from unlock_campaigns_live(p_user, p_book, p_chapter) k
                               where k.kind = 'discount'), 0)) / 100) end)::int
$$;
--> statement-breakpoint
-- reader_unlock_rules: the book's unlock rules for the reader: the variant of the reader's promotion branch when the
-- book has one, else the book's default row (branch_id null); no row: no rules (coins only).
CREATE OR REPLACE FUNCTION reader_unlock_rules(p_user int, p_book int)
RETURNS SETOF book_unlock_rules
LANGUAGE sql STABLE AS $$
  select * from book_unlock_rules r0
  where r0.book_id = p_book
    and (r0.branch_id is null or r0.branch_id = (select u.branch_id from users u where u.id = p_user))
  order by r0.branch_id nulls last limit 1
$$;
--> statement-breakpoint
-- chapter_held_now: the right to read the chapter the reader holds now, at most one row: bought, else a live stored
-- unlock (wait-for-free or ticket), else a live limited-free campaign (ends_at: the latest end of those opening it).
CREATE OR REPLACE FUNCTION chapter_held_now(p_user int, p_chapter int)
RETURNS TABLE (source text, ends_at timestamptz)
LANGUAGE sql STABLE AS $$
  select 'bought'::text, null::timestamptz from chapter_purchases
  where user_id = p_user and chapter_id = p_chapter
  union all
  select u.source, u.ends_at from chapter_unlocks u
  where u.id = 'unlock:' || p_user || ':' || p_chapter and (u.ends_at is null or u.ends_at > now())
  union all
  select 'limited_free'::text, max(k.ends_at)
  from chapters c cross join lateral unlock_campaigns_live(p_user, c.book_id, c.id) k
  where c.id = p_chapter and k.kind = 'limited_free'
  having count(*) > 0
  limit 1
$$;
--> statement-breakpoint
-- unlock_wait_ready: whether the reader may unlock a chapter of the book by wait-for-free now: the wait is over (a
-- reader who never waited is ready), or it is the reader's first day (the China day their account was made) and
-- they have made at most `p_extra` wait-free unlocks of this book: the first one and `p_extra` more skip the wait.
CREATE OR REPLACE FUNCTION unlock_wait_ready(p_user int, p_book int, p_extra int)
RETURNS TABLE (ready boolean)
LANGUAGE sql STABLE AS $$
  select coalesce((select w.ready_at <= now() from unlock_wait_clocks w
                   where w.user_id = p_user and w.book_id = p_book), true)
    or (p_extra > 0
        and exists (select 1 from users u where u.id = p_user
                    and (u.created_at at time zone 'Asia/Shanghai')::date = (now() at time zone 'Asia/Shanghai')::date)
        and (select count(*) from chapter_unlocks cu join chapters cc on cc.id = cu.chapter_id
             where cu.user_id = p_user and cc.book_id = p_book and cu.source = 'wait_free') <= p_extra)
$$;
--> statement-breakpoint
-- unlock_chapter: one unlock attempt of the reader's chapter by `p_by` ('wait_free', 'ticket' or 'coins'), whole or
-- not at all (the calling statement, in autocommit, is its transaction). It answers one row: the outcome (the
-- repository's words: unlocked, already, not_priced, no_chapter, no_wait_free, early_access, waiting, no_ticket,
-- short), and for unlocked/already the source and when the right ends (null: for good).
--
-- The reader's transaction advisory lock `(hashtext('unlock'), user)` comes first, as ledger_buy_chapter and the
-- bundle take it, so every unlock, bundle and coin purchase of one reader runs one after the other; the function is
-- VOLATILE, so each statement after the lock takes a fresh snapshot and sees what the one before committed. now()
-- is the statement's start (before any wait for the lock), one moment for every check and every time written: a
-- ticket usable then is spent at that moment (spent_at < expires_at holds), a wait over then is over.
--
-- Coins: the chapter's price now for the reader, charged by ledger_buy_chapter (which takes the same lock again, a
-- no-op); its errors (a key, a CHECK) undo the whole statement and reach the caller as before.
--
-- `#variable_conflict use_column`: the result columns are named like tables' columns (`source`, `ends_at`).
CREATE OR REPLACE FUNCTION unlock_chapter(p_user int, p_book int, p_chapter int, p_by text)
RETURNS TABLE (outcome text, source text, ends_at timestamptz)
LANGUAGE plpgsql VOLATILE AS $$
#variable_conflict use_column
DECLARE
  ch record;
  held record;
  ticket record;
  v_debited int;
  made timestamptz;
BEGIN
  PERFORM pg_advisory_xact_lock(hashtext('unlock'), p_user);
  SELECT c.id, (SELECT n.price FROM chapter_price_now(p_user, c.book_id, c.id, c.price) n) AS price,
         c.number > b.chapter_count - coalesce(r.early_access_chapters, 0) AS early,
         r.wait_minutes, r.rental_hours, coalesce(r.new_reader_extra, 0) AS new_reader_extra
    INTO ch
    FROM chapters c JOIN books b ON b.id = c.book_id
    LEFT JOIN LATERAL reader_unlock_rules(p_user, b.id) r ON true
    WHERE c.id = p_chapter AND c.book_id = p_book AND b.published AND c.publish_at IS NULL;
  IF NOT FOUND THEN
    RETURN QUERY SELECT 'no_chapter'::text, null::text, null::timestamptz;
    RETURN;
  END IF;
  IF ch.price = 0 THEN
    RETURN QUERY SELECT 'not_priced'::text, null::text, null::timestamptz;
    RETURN;
  END IF;
  SELECT h.source, h.ends_at INTO held FROM chapter_held_now(p_user, p_chapter) h;
  IF FOUND THEN
    RETURN QUERY SELECT 'already'::text, held.source, held.ends_at;
    RETURN;
  END IF;

  IF p_by = 'coins' THEN
    SELECT b.debited INTO v_debited FROM ledger_buy_chapter(p_user, p_chapter, ch.price) b;
    IF v_debited IS DISTINCT FROM 1 THEN
      RETURN QUERY SELECT 'short'::text, null::text, null::timestamptz;
    ELSE
      RETURN QUERY SELECT 'unlocked'::text, 'bought'::text, null::timestamptz;
    END IF;
    RETURN;
  END IF;

  IF p_by = 'wait_free' THEN
    IF ch.wait_minutes IS NULL THEN
      RETURN QUERY SELECT 'no_wait_free'::text, null::text, null::timestamptz;
      RETURN;
    END IF;
    IF ch.early THEN
      RETURN QUERY SELECT 'early_access'::text, null::text, null::timestamptz;
      RETURN;
    END IF;
    IF NOT (SELECT w.ready FROM unlock_wait_ready(p_user, p_book, ch.new_reader_extra) w) THEN
      RETURN QUERY SELECT 'waiting'::text, null::text, null::timestamptz;
      RETURN;
    END IF;
    -- Under its deterministic id; an ended one is replaced in place, a live one never (the lock and the held check
    -- make one impossible here: were it there, the exception undoes everything).
    INSERT INTO chapter_unlocks AS u (id, user_id, chapter_id, source, ends_at, ticket_id)
    VALUES ('unlock:' || p_user || ':' || p_chapter, p_user, p_chapter, 'wait_free',
            now() + make_interval(hours => coalesce(ch.rental_hours, 72)), null)
    ON CONFLICT (id) DO UPDATE SET source = excluded.source, ends_at = excluded.ends_at,
      ticket_id = excluded.ticket_id, created_at = now()
    WHERE u.ends_at IS NOT NULL AND u.ends_at <= now()
    RETURNING u.ends_at INTO made;
    IF NOT FOUND THEN
      RAISE EXCEPTION 'a live unlock was already stored';
    END IF;
    INSERT INTO unlock_wait_clocks (user_id, book_id, ready_at)
    VALUES (p_user, p_book, now() + make_interval(mins => ch.wait_minutes))
    ON CONFLICT (user_id, book_id) DO UPDATE SET ready_at = excluded.ready_at;
    RETURN QUERY SELECT 'unlocked'::text, 'wait_free'::text, made;
    RETURN;
  END IF;

  IF p_by <> 'ticket' THEN
    RAISE EXCEPTION 'unlock by %', p_by;
  END IF;
  -- The soonest-expiring usable ticket in scope; presale kinds only for early-access chapters.
  SELECT t.id, t.rental_hours INTO ticket FROM reading_tickets t
    WHERE t.user_id = p_user AND t.spent_at IS NULL AND t.expires_at > now()
      AND (t.scope_book_ids IS NULL OR p_book = any(t.scope_book_ids))
      AND (t.kind = 'presale' OR NOT ch.early)
    ORDER BY t.expires_at, t.id LIMIT 1 FOR UPDATE;
  IF NOT FOUND THEN
    RETURN QUERY SELECT 'no_ticket'::text, null::text, null::timestamptz;
    RETURN;
  END IF;
  UPDATE reading_tickets t SET spent_at = now(), spent_chapter_id = p_chapter
    WHERE t.id = ticket.id AND t.spent_at IS NULL AND t.expires_at > now();
  IF NOT FOUND THEN
    RETURN QUERY SELECT 'no_ticket'::text, null::text, null::timestamptz;
    RETURN;
  END IF;
  INSERT INTO chapter_unlocks AS u (id, user_id, chapter_id, source, ends_at, ticket_id)
  VALUES ('unlock:' || p_user || ':' || p_chapter, p_user, p_chapter, 'ticket',
          CASE WHEN ticket.rental_hours IS NULL THEN null::timestamptz
               ELSE now() + make_interval(hours => ticket.rental_hours) END, ticket.id)
  ON CONFLICT (id) DO UPDATE SET source = excluded.source, ends_at = excluded.ends_at,
    ticket_id = excluded.ticket_id, created_at = now()
  WHERE u.ends_at IS NOT NULL AND u.ends_at <= now()
  RETURNING u.ends_at INTO made;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'a live unlock was already stored';
  END IF;
  RETURN QUERY SELECT 'unlocked'::text, 'ticket'::text, made;
END
$$;
