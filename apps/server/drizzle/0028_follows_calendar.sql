CREATE TABLE "follows" (
	"user_id" integer NOT NULL,
	"book_id" integer NOT NULL,
	"followed_at" timestamp with time zone DEFAULT now() NOT NULL,
	"seen_chapter" integer DEFAULT 0 NOT NULL,
	"pile_up" smallint DEFAULT 0 NOT NULL,
	"pile_told_chapter" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "follows_user_id_book_id_pk" PRIMARY KEY("user_id","book_id"),
	CONSTRAINT "follows_pile_up" CHECK ("follows"."pile_up" in (0, 3, 5, 10)),
	CONSTRAINT "follows_chapters" CHECK ("follows"."seen_chapter" >= 0 and "follows"."pile_told_chapter" >= 0)
);
--> statement-breakpoint
ALTER TABLE "books" ADD COLUMN "release_days" smallint[] DEFAULT '{}'::smallint[] NOT NULL;--> statement-breakpoint
ALTER TABLE "follows" ADD CONSTRAINT "follows_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "follows" ADD CONSTRAINT "follows_book_id_books_id_fk" FOREIGN KEY ("book_id") REFERENCES "public"."books"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "follows_piling" ON "follows" USING btree ("book_id") WHERE "follows"."pile_up" > 0;--> statement-breakpoint
ALTER TABLE "books" ADD CONSTRAINT "books_release_days" CHECK ("books"."release_days" <@ '{1,2,3,4,5,6,7}'::smallint[]);