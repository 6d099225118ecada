CREATE INDEX "reading_progress_by_read_at" ON "reading_progress" USING btree ("read_at");--> statement-breakpoint
CREATE INDEX "chapter_unlocks_by_created_at" ON "chapter_unlocks" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "users_by_created_at" ON "users" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "visit_marks_by_created_at" ON "visit_marks" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "chapter_purchases_by_created_at" ON "chapter_purchases" USING btree ("created_at");