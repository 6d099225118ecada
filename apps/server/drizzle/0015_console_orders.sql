ALTER TABLE "branch_settings" ADD COLUMN "name" text DEFAULT '' NOT NULL;--> statement-breakpoint
CREATE INDEX "pay_orders_by_created_at" ON "pay_orders" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "pay_orders_by_branch" ON "pay_orders" USING btree ("branch_id","created_at");