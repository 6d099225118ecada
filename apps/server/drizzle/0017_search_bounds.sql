-- Bounded book text and a search index whose cost is linear in it (docs/decisions.md, "Book text limits" and "Read
-- counts never re-index a book's text"). The update trigger is dropped first: the rows cut below must not be
-- re-indexed one by one with the old, quadratic gram function; the postings are rebuilt once instead.
DROP TRIGGER books_indexed_update ON books;
--> statement-breakpoint
ALTER TABLE "books" ADD COLUMN "indexed_bucket" smallint DEFAULT 0 NOT NULL;
--> statement-breakpoint
-- The grams of a book: every one- and two-character substring of its lowercased title, author and description,
-- each with the first of those fields that has it (1 title, 2 author, 3 description). Linear in the text: its
-- characters once (string_to_array with a NULL delimiter), each with the next (lead); each field cut to its limit
-- (BOOK_TEXT_LIMITS, also a CHECK on books) so the cost is bounded whatever is passed in. (The one of 0006 took
-- substr(s, i, w) for every i: quadratic on multibyte text, minutes on a long imported Series.)
CREATE OR REPLACE FUNCTION book_grams(title text, author text, about text) RETURNS TABLE (gram text, tier smallint)
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT g.gram, min(c.tier)
  FROM (
    SELECT f.tier, ch.c, lead(ch.c) OVER (PARTITION BY f.tier ORDER BY ch.i) AS next
    FROM (VALUES (1::smallint, lower(left(title, 100))), (2::smallint, lower(left(author, 50))),
        (3::smallint, lower(left(about, 2000)))) AS f (tier, s),
      unnest(string_to_array(f.s, NULL)) WITH ORDINALITY AS ch (c, i)
  ) AS c,
    LATERAL (VALUES (c.c), (c.c || c.next)) AS g (gram)
  WHERE g.gram IS NOT NULL
  GROUP BY 1
$$;
--> statement-breakpoint
-- Text over the limits is cut (only an import could write it); a cut category name keeps its id so it stays unique.
UPDATE categories SET name = left(name, 19 - char_length(id::text)) || '#' || id WHERE char_length(name) > 20;
--> statement-breakpoint
UPDATE books SET title = left(title, 100), author = left(author, 50), abstract_content = left(abstract_content, 2000)
WHERE char_length(title) > 100 OR char_length(author) > 50 OR char_length(abstract_content) > 2000;
--> statement-breakpoint
UPDATE books SET indexed_bucket = book_rank_bucket(read_count);
--> statement-breakpoint
-- The postings again, from the cut text, under each book's indexed bucket.
TRUNCATE book_postings;
--> statement-breakpoint
INSERT INTO book_postings (gram, tier, bucket, n, book_ids)
SELECT g.gram, g.tier, b.indexed_bucket, count(*), array_agg(b.id ORDER BY b.id)
FROM books AS b, book_grams(b.title, b.author, b.abstract_content) AS g
WHERE b.published
GROUP BY 1, 2, 3;
--> statement-breakpoint
CREATE INDEX "books_bucket_behind" ON "books" USING btree ("id") WHERE "books"."indexed_bucket" <> book_rank_bucket("books"."read_count");--> statement-breakpoint
ALTER TABLE "books" ADD CONSTRAINT "books_text_length" CHECK (char_length("books"."title") <= 100 and char_length("books"."author") <= 50 and char_length("books"."abstract_content") <= 2000);--> statement-breakpoint
ALTER TABLE "categories" ADD CONSTRAINT "categories_name_length" CHECK (char_length("categories"."name") <= 20);
--> statement-breakpoint
-- The postings hold a book under its indexed_bucket, not its read count's bucket of the moment.
CREATE OR REPLACE FUNCTION book_postings_add(rows books[]) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_advisory_xact_lock(7311001);
  INSERT INTO book_postings AS p (gram, tier, bucket, n, book_ids)
  SELECT g.gram, g.tier, b.indexed_bucket, count(*), array_agg(b.id ORDER BY b.id)
  FROM unnest(rows) AS b, book_grams(b.title, b.author, b.abstract_content) AS g
  GROUP BY 1, 2, 3
  ORDER BY 1, 2, 3
  ON CONFLICT (gram, tier, bucket) DO UPDATE
    SET n = p.n + excluded.n, book_ids = p.book_ids || excluded.book_ids;
END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION book_postings_remove(rows books[]) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  gone record;
BEGIN
  PERFORM pg_advisory_xact_lock(7311001);
  FOR gone IN
    SELECT g.gram, g.tier, b.indexed_bucket AS bucket, array_agg(b.id) AS ids
    FROM unnest(rows) AS b, book_grams(b.title, b.author, b.abstract_content) AS g
    GROUP BY 1, 2, 3
    ORDER BY 1, 2, 3
  LOOP
    -- n less the books taken out: book_postings_n fails the statement if one of them was not in the list.
    UPDATE book_postings AS p
    SET book_ids = CASE WHEN cardinality(gone.ids) = 1 THEN array_remove(p.book_ids, gone.ids[1]) ELSE ARRAY(
          SELECT unnest(p.book_ids) EXCEPT ALL SELECT unnest(gone.ids)) END,
      n = p.n - cardinality(gone.ids)
    WHERE p.gram = gone.gram AND p.tier = gone.tier AND p.bucket = gone.bucket;
  END LOOP;
END
$$;
--> statement-breakpoint
-- A book is indexed at its current bucket when it is written (inserted, its text or its publication changed); a
-- read (read_count only) changes nothing here.
CREATE FUNCTION books_bucket_current() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  NEW.indexed_bucket := book_rank_bucket(NEW.read_count);
  RETURN NEW;
END
$$;
--> statement-breakpoint
CREATE TRIGGER books_bucket_on_insert BEFORE INSERT ON books
  FOR EACH ROW EXECUTE FUNCTION books_bucket_current();
--> statement-breakpoint
CREATE TRIGGER books_bucket_on_write BEFORE UPDATE OF title, author, abstract_content, published ON books
  FOR EACH ROW
  WHEN ((OLD.title, OLD.author, OLD.abstract_content, OLD.published)
    IS DISTINCT FROM (NEW.title, NEW.author, NEW.abstract_content, NEW.published))
  EXECUTE FUNCTION books_bucket_current();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION books_indexed_update() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF OLD.published AND NOT NEW.published THEN
    PERFORM book_postings_remove(ARRAY[OLD]);
    PERFORM book_counts_add(ARRAY[OLD], -1);
  ELSIF NEW.published AND NOT OLD.published THEN
    PERFORM book_postings_add(ARRAY[NEW]);
    PERFORM book_counts_add(ARRAY[NEW], 1);
  ELSIF NEW.published THEN
    IF (OLD.id, OLD.title, OLD.author, OLD.abstract_content, OLD.indexed_bucket)
       IS DISTINCT FROM (NEW.id, NEW.title, NEW.author, NEW.abstract_content, NEW.indexed_bucket) THEN
      PERFORM book_postings_remove(ARRAY[OLD]);
      PERFORM book_postings_add(ARRAY[NEW]);
    END IF;
    IF (OLD.id, OLD.publish_status, OLD.category_id) IS DISTINCT FROM (NEW.id, NEW.publish_status, NEW.category_id) THEN
      PERFORM book_counts_add(ARRAY[OLD], -1);
      PERFORM book_counts_add(ARRAY[NEW], 1);
    END IF;
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- No read_count here: a read never fires it (the search-buckets job moves a book's bucket, by indexed_bucket).
CREATE TRIGGER books_indexed_update
  AFTER UPDATE OF id, title, author, abstract_content, indexed_bucket, publish_status, category_id, published ON books
  FOR EACH ROW
  WHEN ((OLD.id, OLD.title, OLD.author, OLD.abstract_content, OLD.indexed_bucket, OLD.publish_status, OLD.category_id, OLD.published)
    IS DISTINCT FROM (NEW.id, NEW.title, NEW.author, NEW.abstract_content, NEW.indexed_bucket, NEW.publish_status, NEW.category_id, NEW.published))
  EXECUTE FUNCTION books_indexed_update();
--> statement-breakpoint
-- Moves up to `batch` books whose read count left the bucket their postings hold to their current one (the
-- search-buckets job, a batch a transaction); answers how many it moved. Books being written now are skipped.
CREATE FUNCTION book_buckets_refresh(batch integer) RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE
  moved integer;
BEGIN
  UPDATE books AS b SET indexed_bucket = book_rank_bucket(b.read_count)
  WHERE b.id IN (
    SELECT l.id FROM books AS l WHERE l.indexed_bucket <> book_rank_bucket(l.read_count)
    ORDER BY l.id LIMIT batch FOR UPDATE SKIP LOCKED);
  GET DIAGNOSTICS moved = ROW_COUNT;
  RETURN moved;
END
$$;
