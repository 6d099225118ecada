CREATE TABLE "sandbox_refunds" (
	"refund_no" text PRIMARY KEY NOT NULL,
	"trade_no" text NOT NULL,
	"amount" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sandbox_refunds_amount" CHECK ("sandbox_refunds"."amount" > 0)
);
--> statement-breakpoint
ALTER TABLE "pay_refunds" ADD COLUMN "coins" text DEFAULT 'keep' NOT NULL;--> statement-breakpoint
ALTER TABLE "pay_refunds" ADD COLUMN "coins_taken" integer;--> statement-breakpoint
ALTER TABLE "pay_refunds" ADD COLUMN "kind" text DEFAULT 'gateway' NOT NULL;--> statement-breakpoint
ALTER TABLE "sandbox_refunds" ADD CONSTRAINT "sandbox_refunds_trade_no_sandbox_payments_trade_no_fk" FOREIGN KEY ("trade_no") REFERENCES "public"."sandbox_payments"("trade_no") ON DELETE restrict ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "sandbox_refunds_by_trade" ON "sandbox_refunds" USING btree ("trade_no");--> statement-breakpoint
ALTER TABLE "pay_refunds" ADD CONSTRAINT "pay_refunds_coins" CHECK ("pay_refunds"."coins" in ('take', 'keep'));--> statement-breakpoint
ALTER TABLE "pay_refunds" ADD CONSTRAINT "pay_refunds_kind" CHECK ("pay_refunds"."kind" in ('gateway', 'offline'));