-- Hand-written (drizzle-kit cannot name the primary key it drops): the rules' primary key was the book alone; a book
-- now has its default row (branch_id null) and one row per promotion branch with a variant.
ALTER TABLE "book_unlock_rules" DROP CONSTRAINT "book_unlock_rules_pkey";--> statement-breakpoint
ALTER TABLE "book_unlock_rules" ADD COLUMN "branch_id" integer;--> statement-breakpoint
ALTER TABLE "book_unlock_rules" ADD CONSTRAINT "book_unlock_rules_book_branch" UNIQUE NULLS NOT DISTINCT("book_id","branch_id");
