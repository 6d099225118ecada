ALTER TABLE "pay_configs" ADD COLUMN "first_pay_bonus" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "pay_configs" ADD COLUMN "first_pay_starts_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "pay_configs" ADD COLUMN "first_pay_ends_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "pay_orders" ADD COLUMN "first_pay_bonus" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "pay_configs" ADD CONSTRAINT "pay_configs_first_pay" CHECK ("pay_configs"."first_pay_bonus" >= 0);