ALTER TABLE "chapter_purchases" ADD COLUMN "bundle_id" text;--> statement-breakpoint
ALTER TABLE "chapter_purchases" ADD CONSTRAINT "chapter_purchases_bundle_id_ledger_transfers_id_fk" FOREIGN KEY ("bundle_id") REFERENCES "public"."ledger_transfers"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
-- Hand-written: the purchase statement takes the unlock path's per-reader lock first (the transaction advisory
-- lock `(hashtext('unlock'), user)` that chapter unlocks take), so a buy and an unlock of one reader run one
-- after the other; and a chapter held by a live stored unlock (a rental) counts as owned: charged nothing.
-- The statements after the lock take their own snapshot (the function is VOLATILE), so they see what an unlock
-- committed while the buy waited.
CREATE OR REPLACE FUNCTION ledger_buy_chapter(p_user int, p_chapter int, p_price int)
RETURNS TABLE (owned boolean, debited int, claimed int, entries int, balance bigint, held bigint)
LANGUAGE plpgsql VOLATILE AS $$
#variable_conflict use_column
BEGIN
  PERFORM pg_advisory_xact_lock(hashtext('unlock'), p_user);
  RETURN QUERY
  with owned as (
    select 1 from chapter_purchases where user_id = p_user and chapter_id = p_chapter
    union all
    select 1 from chapter_unlocks
    where id = 'unlock:' || p_user || ':' || p_chapter and (ends_at is null or ends_at > now())
  ), debit as (
    update ledger_accounts set balance = balance - p_price
    where user_id = p_user and balance >= p_price and not exists (select 1 from owned)
    returning id, balance
  ), claim as (
    insert into chapter_purchases (user_id, chapter_id, price)
    select p_user, p_chapter, p_price from debit
    returning 1
  ), transfer as (
    insert into ledger_transfers (id, kind, user_id, amount, chapter_id)
    select 'purchase:' || p_user || ':' || p_chapter, 'purchase', p_user, p_price, p_chapter from debit
    returning id
  ), entries as (
    insert into ledger_entries (transfer_id, account_id, amount)
    select transfer.id, debit.id, -p_price from transfer, debit
    union all
    select transfer.id, (select id from ledger_accounts where code = 'system:sales'), p_price from transfer
    returning 1
  )
  select exists (select 1 from owned),
         (select count(*) from debit)::int,
         (select count(*) from claim)::int,
         (select count(*) from entries)::int,
         (select balance from debit)::bigint,
         case when exists (select 1 from owned)
           then (select balance from ledger_accounts where user_id = p_user) end::bigint;
END
$$;
