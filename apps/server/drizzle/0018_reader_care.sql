CREATE TABLE "vip_adjustments" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"days" integer NOT NULL,
	"vip_end_before" timestamp with time zone,
	"vip_end_after" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "vip_adjustments_days" CHECK ("vip_adjustments"."days" <> 0)
);
--> statement-breakpoint
ALTER TABLE "ledger_transfers" DROP CONSTRAINT "ledger_transfers_kind";--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "last_seen_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "blocked_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "block_reason" text;--> statement-breakpoint
ALTER TABLE "vip_adjustments" ADD CONSTRAINT "vip_adjustments_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "vip_adjustments_by_user" ON "vip_adjustments" USING btree ("user_id","created_at");--> statement-breakpoint
ALTER TABLE "ledger_transfers" ADD CONSTRAINT "ledger_transfers_kind" CHECK ("ledger_transfers"."kind" in ('recharge', 'bonus', 'purchase', 'grant', 'revoke'));--> statement-breakpoint
-- Where an operator's coin adjustments come from and go to (docs/decisions.md, "The console's readers").
INSERT INTO "ledger_accounts" ("code") VALUES ('system:adjustments') ON CONFLICT ("code") DO NOTHING;
