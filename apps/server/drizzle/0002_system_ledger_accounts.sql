-- The ledger's system accounts (see apps/server/src/db/schema/wallet.ts): where bought coins come from,
-- where bonus coins come from, and where coins spent on chapters go. Their balance is the sum of their entries.
INSERT INTO "ledger_accounts" ("code") VALUES ('system:payments'), ('system:bonus'), ('system:sales')
ON CONFLICT ("code") DO NOTHING;
