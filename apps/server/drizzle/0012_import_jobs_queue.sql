ALTER TABLE "import_jobs" DROP CONSTRAINT "import_jobs_state";--> statement-breakpoint
ALTER TABLE "import_jobs" ALTER COLUMN "state" SET DEFAULT 'queued';--> statement-breakpoint
ALTER TABLE "import_jobs" ADD COLUMN "place" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "import_jobs" ADD COLUMN "folder" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "import_jobs" ADD COLUMN "source" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "import_jobs" ADD COLUMN "attempts" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX "import_jobs_waiting" ON "import_jobs" USING btree ("place","id") WHERE "import_jobs"."state" in ('queued', 'running');--> statement-breakpoint
ALTER TABLE "import_jobs" ADD CONSTRAINT "import_jobs_state" CHECK ("import_jobs"."state" in ('queued', 'running', 'done', 'failed'));