CREATE TABLE "reader_days" (
	"user_id" integer NOT NULL,
	"day" date NOT NULL,
	"age" integer NOT NULL,
	"branch_id" integer NOT NULL,
	CONSTRAINT "reader_days_user_id_day_pk" PRIMARY KEY("user_id","day")
);
--> statement-breakpoint
ALTER TABLE "reader_days" ADD CONSTRAINT "reader_days_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "reader_days_for_retention" ON "reader_days" USING btree ("day","age","branch_id","user_id") WHERE "reader_days"."age" in (0, 1, 7, 30);