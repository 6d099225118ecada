CREATE TABLE "dashboard_days" (
	"day" date NOT NULL,
	"branch_id" integer NOT NULL,
	"paid_orders" integer DEFAULT 0 NOT NULL,
	"revenue" bigint DEFAULT 0 NOT NULL,
	"first_payers" integer DEFAULT 0 NOT NULL,
	"refunds" integer DEFAULT 0 NOT NULL,
	"refunded_amount" bigint DEFAULT 0 NOT NULL,
	"new_readers" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "dashboard_days_day_branch_id_pk" PRIMARY KEY("day","branch_id")
);
--> statement-breakpoint
CREATE TABLE "dashboard_summary_days" (
	"day" date PRIMARY KEY NOT NULL,
	"summarised_at" timestamp with time zone DEFAULT now() NOT NULL
);
