-- The ledger's purchase statement as a function, so its plan is kept (apps/server/src/modules/wallet/
-- ledger.repository.ts, docs/decisions.md '## Wallet'). The body is the purchase statement the ledger sent
-- before, unchanged: data-modifying CTEs that debit the reader's account (`balance >= price`, not already
-- owned) and write the claim, the transfer `purchase:{user}:{chapter}` and its two entries from the debit's row.
--
-- Why a function: parsing and planning that statement was most of a purchase's database time (on PGlite
-- ~1,070 µs a purchase unprepared against ~460 µs as a prepared statement), and drizzle cannot prepare raw SQL
-- (its PGlite driver ignores statement names). PL/pgSQL keeps the plan of each statement of a function for the
-- session (on PGlite and on every pooled PostgreSQL connection), and `select * from ledger_buy_chapter(...)`
-- is short to parse and plan.
--
-- Same semantics as the plain statement: the function's statement runs inside the calling statement, in
-- autocommit its own transaction, so an error anywhere (a unique key, a CHECK, a foreign key) undoes all of it
-- and reaches the caller with its SQLSTATE and constraint name; the body's statement takes its own snapshot
-- (the function is VOLATILE) and the debit's row lock and PostgreSQL's re-check of the updated row
-- (EvalPlanQual) work as for the plain statement. The caller answers the races as before.
--
-- `#variable_conflict use_column`: the result columns are named like the table's and the CTEs' columns
-- (`balance`, ...); inside the query a name always means the column.
CREATE OR REPLACE FUNCTION ledger_buy_chapter(p_user int, p_chapter int, p_price int)
RETURNS TABLE (owned boolean, debited int, claimed int, entries int, balance bigint, held bigint)
LANGUAGE plpgsql VOLATILE AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY
  with owned as (
    select 1 from chapter_purchases where user_id = p_user and chapter_id = p_chapter
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
