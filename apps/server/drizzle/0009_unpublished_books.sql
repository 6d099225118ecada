ALTER TABLE "books" ADD COLUMN "published" boolean DEFAULT true NOT NULL;--> statement-breakpoint
-- The search postings and the list counts hold published books only: an unpublished book leaves them as if deleted,
-- and comes back as if inserted when it is published again.
CREATE OR REPLACE FUNCTION books_indexed_insert() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE added books[];
BEGIN
  SELECT array_agg(b) INTO added FROM new_books AS b WHERE b.published;
  IF added IS NOT NULL THEN
    PERFORM book_postings_add(added);
    PERFORM book_counts_add(added, 1);
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION books_indexed_delete() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE removed books[];
BEGIN
  SELECT array_agg(b) INTO removed FROM old_books AS b WHERE b.published;
  IF removed IS NOT NULL THEN
    PERFORM book_postings_remove(removed);
    PERFORM book_counts_add(removed, -1);
  END IF;
  RETURN NULL;
END
$$;
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
    IF (OLD.id, OLD.title, OLD.author, OLD.abstract_content, book_rank_bucket(OLD.read_count))
       IS DISTINCT FROM (NEW.id, NEW.title, NEW.author, NEW.abstract_content, book_rank_bucket(NEW.read_count)) THEN
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
DROP TRIGGER books_indexed_update ON books;
--> statement-breakpoint
CREATE TRIGGER books_indexed_update
  AFTER UPDATE OF id, title, author, abstract_content, read_count, publish_status, category_id, published ON books
  FOR EACH ROW
  WHEN ((OLD.id, OLD.title, OLD.author, OLD.abstract_content, book_rank_bucket(OLD.read_count), OLD.publish_status, OLD.category_id, OLD.published)
    IS DISTINCT FROM (NEW.id, NEW.title, NEW.author, NEW.abstract_content, book_rank_bucket(NEW.read_count), NEW.publish_status, NEW.category_id, NEW.published))
  EXECUTE FUNCTION books_indexed_update();
