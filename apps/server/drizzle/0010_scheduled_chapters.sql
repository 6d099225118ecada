ALTER TABLE "chapters" ADD COLUMN "publish_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "chapters_scheduled" ON "chapters" USING btree ("publish_at") WHERE "chapters"."publish_at" is not null;--> statement-breakpoint
-- Readers' chapter lists (built here or kept ready-made in chapter_lists) leave out chapters still scheduled.
CREATE OR REPLACE FUNCTION chapter_list_json(book integer) RETURNS json
LANGUAGE sql STABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN count(*) > 0 THEN json_build_array(
    array_agg(c.number ORDER BY c.number), array_agg(c.title ORDER BY c.number), array_agg(c.cover ORDER BY c.number),
    array_agg(c.price ORDER BY c.number), array_agg(c.id ORDER BY c.number)) END
  FROM chapters AS c WHERE c.book_id = book AND c.publish_at IS NULL
$$;
