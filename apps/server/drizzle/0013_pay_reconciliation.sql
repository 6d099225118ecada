ALTER TABLE "pay_order_events" ADD COLUMN "payload" jsonb;--> statement-breakpoint
ALTER TABLE "pay_orders" ADD COLUMN "checked_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "pay_orders_unsettled" ON "pay_orders" USING btree ("checked_at","created_at") WHERE "pay_orders"."status" in ('created', 'expired');