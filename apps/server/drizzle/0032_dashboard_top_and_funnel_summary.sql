CREATE TABLE "dashboard_chapter_days" (
	"day" date NOT NULL,
	"chapter_id" integer NOT NULL,
	"coins" bigint DEFAULT 0 NOT NULL,
	"unlocks" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "dashboard_chapter_days_day_chapter_id_pk" PRIMARY KEY("day","chapter_id")
);
--> statement-breakpoint
CREATE TABLE "dashboard_funnel_days" (
	"cohort_day" date NOT NULL,
	"event_day" date NOT NULL,
	"branch_id" integer NOT NULL,
	"visits" integer DEFAULT 0 NOT NULL,
	"accounts" integer DEFAULT 0 NOT NULL,
	"payers" integer DEFAULT 0 NOT NULL,
	"revenue" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "dashboard_funnel_days_cohort_day_event_day_branch_id_pk" PRIMARY KEY("cohort_day","event_day","branch_id")
);
--> statement-breakpoint
CREATE TABLE "dashboard_unlock_days" (
	"day" date NOT NULL,
	"book_id" integer NOT NULL,
	"branch_id" integer NOT NULL,
	"coins_unlocks" integer DEFAULT 0 NOT NULL,
	"coins" bigint DEFAULT 0 NOT NULL,
	"free_unlocks" integer DEFAULT 0 NOT NULL,
	"wait_free_unlocks" integer DEFAULT 0 NOT NULL,
	"ticket_unlocks" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "dashboard_unlock_days_day_book_id_branch_id_pk" PRIMARY KEY("day","book_id","branch_id")
);
--> statement-breakpoint
CREATE INDEX "dashboard_funnel_days_by_event" ON "dashboard_funnel_days" USING btree ("event_day");--> statement-breakpoint
CREATE INDEX "visit_marks_by_visitor" ON "visit_marks" USING btree ("visitor_id");--> statement-breakpoint
CREATE INDEX "visit_marks_by_user" ON "visit_marks" USING btree ("user_id") WHERE "visit_marks"."user_id" is not null;--> statement-breakpoint
-- Hand-written: the days summarised before these tables existed have no rows in them; forgetting those days makes
-- the first dashboard read summarise them again, all tables together (no backfill here, as for the daily summary).
DELETE FROM "dashboard_days";--> statement-breakpoint
DELETE FROM "dashboard_summary_days";
