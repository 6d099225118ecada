-- Search the way readers type (docs/decisions.md, "Search the way readers type"): aliases, the folded search keys the
-- server computes when a book is written, pinyin keys, the searches readers made. Hand-written below the generated
-- part: the gram index over folded text in four fields, the trigger that marks keys stale, the text search of four
-- fields, and the postings rebuilt once. Edited in the generated part: the key columns are COLLATE "C" (prefix
-- ranges in code point order), the pinyin keys' primary key also holds tier and bucket (INCLUDE: a key range is read
-- from the index alone), and the description's stored fold is added after search_fold, which it calls.
CREATE TABLE "book_pinyin_keys" (
	"key" text COLLATE "C" NOT NULL,
	"book_id" integer NOT NULL,
	"tier" smallint NOT NULL,
	"bucket" smallint,
	CONSTRAINT "book_pinyin_keys_key_book_id_pk" PRIMARY KEY("key","book_id") INCLUDE ("tier", "bucket")
);
--> statement-breakpoint
CREATE TABLE "search_terms" (
	"day" date NOT NULL,
	"keyword" text NOT NULL,
	"searches" integer NOT NULL,
	"misses" integer NOT NULL,
	CONSTRAINT "search_terms_day_keyword_pk" PRIMARY KEY("day","keyword")
);
--> statement-breakpoint
ALTER TABLE "book_postings" DROP CONSTRAINT "book_postings_tier";--> statement-breakpoint
ALTER TABLE "books" ADD COLUMN "aliases" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "books" ADD COLUMN "search_title" text COLLATE "C";--> statement-breakpoint
ALTER TABLE "books" ADD COLUMN "search_author" text;--> statement-breakpoint
ALTER TABLE "books" ADD COLUMN "search_aliases" text;--> statement-breakpoint
ALTER TABLE "books" ADD COLUMN "search_pinyin" text;--> statement-breakpoint
ALTER TABLE "book_pinyin_keys" ADD CONSTRAINT "book_pinyin_keys_book_id_books_id_fk" FOREIGN KEY ("book_id") REFERENCES "public"."books"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "book_pinyin_keys_book" ON "book_pinyin_keys" USING btree ("book_id");--> statement-breakpoint
CREATE INDEX "books_search_title" ON "books" USING btree ("search_title") WHERE "books"."published";--> statement-breakpoint
CREATE INDEX "books_search_keys_missing" ON "books" USING btree ("id") WHERE "books"."search_title" is null;--> statement-breakpoint
ALTER TABLE "book_postings" ADD CONSTRAINT "book_postings_tier" CHECK ("book_postings"."tier" between 1 and 4);--> statement-breakpoint
ALTER TABLE "books" ADD CONSTRAINT "books_aliases_bound" CHECK (cardinality("books"."aliases") <= 10 and char_length(array_to_string("books"."aliases", '')) <= 500);
--> statement-breakpoint
-- The database's own fold, used where the server's keys are not there yet (and for descriptions): case, full-width
-- ASCII to half-width, spaces and the common punctuation gone. The server's fold (search-keys.ts) does all this and
-- more (traditional characters, every Unicode punctuation); where both agree, filling a book's keys changes none of
-- its grams, so the first fill of 100,000 books re-indexes only the few whose text they fold differently.
CREATE FUNCTION search_fold(s text) RETURNS text
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT regexp_replace(
    lower(translate(s,
      '！＂＃＄％＆＇（）＊＋，－．／０１２３４５６７８９：；＜＝＞？＠ＡＢＣＤＥＦＧＨＩＪＫＬＭＮＯＰＱＲＳＴＵＶＷＸＹＺ［＼］＾＿｀ａｂｃｄｅｆｇｈｉｊｋｌｍｎｏｐｑｒｓｔｕｖｗｘｙｚ｛｜｝～',
      '!"#$%&''()*+,-./0123456789:;<=>?@ABCDEFGHIJKLMNOPQRSTUVWXYZ[\]^_`abcdefghijklmnopqrstuvwxyz{|}~')),
    '[[:space:]!-/:-@[-`{-~\u00a0\u00b7\u2000-\u206f\u3000-\u3004\u3008-\u303f\u30fb\uff5f-\uff65]', '', 'g')
$$;
--> statement-breakpoint
-- The description's fold, stored: computed once when the description is written, so no search folds it (a search
-- compares text, it never computes a key).
ALTER TABLE "books" ADD COLUMN "search_about" text GENERATED ALWAYS AS (search_fold(left(abstract_content, 2000))) STORED;
--> statement-breakpoint
-- The grams of a book in four fields, 1 title, 2 aliases (separated by spaces), 3 author, 4 description: every one-
-- and two-character substring without a space, with the first field that has it. Linear and bounded as 0017's.
CREATE FUNCTION book_grams(title text, aliases text, author text, about text) RETURNS TABLE (gram text, tier smallint)
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT g.gram, min(c.tier)
  FROM (
    SELECT f.tier, ch.c, lead(ch.c) OVER (PARTITION BY f.tier ORDER BY ch.i) AS next
    FROM (VALUES (1::smallint, lower(left(title, 100))), (2::smallint, lower(left(aliases, 560))),
        (3::smallint, lower(left(author, 50))), (4::smallint, lower(left(about, 2000)))) AS f (tier, s),
      unnest(string_to_array(f.s, NULL)) WITH ORDINALITY AS ch (c, i)
  ) AS c,
    LATERAL (VALUES (c.c), (c.c || c.next)) AS g (gram)
  WHERE g.gram IS NOT NULL AND strpos(g.gram, ' ') = 0
  GROUP BY 1
$$;
--> statement-breakpoint
-- What a book is searched in, field by field: the server's keys, or the database's fold until they are there (a
-- book whose text was written without its keys, until the search-keys job fills them), and the stored description.
-- Only the posting triggers call it, when a book is written; a search compares the stored columns themselves.
CREATE FUNCTION book_search_fields(b books) RETURNS text[]
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT ARRAY[
    coalesce(b.search_title, search_fold(left(b.title, 100))),
    coalesce(b.search_aliases, (SELECT coalesce(string_agg(search_fold(left(a, 50)), ' '), '') FROM unnest(b.aliases[1:10]) AS a)),
    coalesce(b.search_author, search_fold(left(b.author, 50))),
    b.search_about]
$$;
--> statement-breakpoint
CREATE FUNCTION book_grams_of(b books) RETURNS TABLE (gram text, tier smallint)
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT g.gram, g.tier FROM (SELECT book_search_fields(b) AS f) AS s, book_grams(s.f[1], s.f[2], s.f[3], s.f[4]) AS g
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION book_postings_add(rows books[]) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_advisory_xact_lock(7311001);
  INSERT INTO book_postings AS p (gram, tier, bucket, n, book_ids)
  SELECT g.gram, g.tier, b.indexed_bucket, count(*), array_agg(b.id ORDER BY b.id)
  FROM unnest(rows) AS b, book_grams_of(b) AS g
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
    FROM unnest(rows) AS b, book_grams_of(b) AS g
    GROUP BY 1, 2, 3
    ORDER BY 1, 2, 3
  LOOP
    UPDATE book_postings AS p
    SET book_ids = CASE WHEN cardinality(gone.ids) = 1 THEN array_remove(p.book_ids, gone.ids[1]) ELSE ARRAY(
          SELECT unnest(p.book_ids) EXCEPT ALL SELECT unnest(gone.ids)) END,
      n = p.n - cardinality(gone.ids)
    WHERE p.gram = gone.gram AND p.tier = gone.tier AND p.bucket = gone.bucket;
  END LOOP;
END
$$;
--> statement-breakpoint
DROP TRIGGER books_indexed_update ON books;
--> statement-breakpoint
-- Re-indexes a book when what it is searched in changed (not merely its raw text: keys filled for a book whose text
-- both folds agree on change no gram), its bucket or its publication; keeps its pinyin keys' bucket (null while it
-- is unpublished). The trigger's condition compares stored columns only; the fields are computed here, once a side,
-- and only when its text or keys changed (a book with its keys folds nothing).
CREATE OR REPLACE FUNCTION books_indexed_update() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF (OLD.published, OLD.indexed_bucket) IS DISTINCT FROM (NEW.published, NEW.indexed_bucket) THEN
    UPDATE book_pinyin_keys SET bucket = CASE WHEN NEW.published THEN NEW.indexed_bucket END WHERE book_id = NEW.id;
  END IF;
  IF OLD.published AND NOT NEW.published THEN
    PERFORM book_postings_remove(ARRAY[OLD]);
    PERFORM book_counts_add(ARRAY[OLD], -1);
  ELSIF NEW.published AND NOT OLD.published THEN
    PERFORM book_postings_add(ARRAY[NEW]);
    PERFORM book_counts_add(ARRAY[NEW], 1);
  ELSIF NEW.published THEN
    IF OLD.id IS DISTINCT FROM NEW.id OR OLD.indexed_bucket IS DISTINCT FROM NEW.indexed_bucket
       OR ((OLD.title, OLD.author, OLD.aliases, OLD.search_title, OLD.search_aliases, OLD.search_author, OLD.search_about)
           IS DISTINCT FROM (NEW.title, NEW.author, NEW.aliases, NEW.search_title, NEW.search_aliases, NEW.search_author,
             NEW.search_about)
         AND book_search_fields(OLD) IS DISTINCT FROM book_search_fields(NEW)) THEN
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
CREATE TRIGGER books_indexed_update
  AFTER UPDATE OF id, title, author, abstract_content, aliases, search_title, search_aliases, search_author,
    indexed_bucket, publish_status, category_id, published ON books
  FOR EACH ROW
  WHEN ((OLD.id, OLD.indexed_bucket, OLD.publish_status, OLD.category_id, OLD.published, OLD.title, OLD.author,
      OLD.aliases, OLD.search_title, OLD.search_aliases, OLD.search_author, OLD.search_about)
    IS DISTINCT FROM (NEW.id, NEW.indexed_bucket, NEW.publish_status, NEW.category_id, NEW.published, NEW.title,
      NEW.author, NEW.aliases, NEW.search_title, NEW.search_aliases, NEW.search_author, NEW.search_about))
  EXECUTE FUNCTION books_indexed_update();
--> statement-breakpoint
-- Text written without its keys (any writer but the server's own: SQL, an old server during an upgrade): the keys
-- are dropped, with the pinyin keys, so nothing searches stale keys; the search-keys job computes them again.
CREATE FUNCTION books_search_keys_stale() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF (NEW.title, NEW.author, NEW.aliases) IS DISTINCT FROM (OLD.title, OLD.author, OLD.aliases)
     AND (NEW.search_title, NEW.search_author, NEW.search_aliases, NEW.search_pinyin)
       IS NOT DISTINCT FROM (OLD.search_title, OLD.search_author, OLD.search_aliases, OLD.search_pinyin) THEN
    NEW.search_title := NULL;
    NEW.search_author := NULL;
    NEW.search_aliases := NULL;
    NEW.search_pinyin := NULL;
    DELETE FROM book_pinyin_keys WHERE book_id = OLD.id;
  END IF;
  RETURN NEW;
END
$$;
--> statement-breakpoint
CREATE TRIGGER books_search_keys_stale BEFORE UPDATE OF title, author, aliases ON books
  FOR EACH ROW EXECUTE FUNCTION books_search_keys_stale();
--> statement-breakpoint
-- A keyword of three characters or more (folded by the server): as 0006's, over the four fields of
-- book_search_fields, read from their stored columns; answers (tier 1 title, 2 aliases, 3 author, 4 description, id).
CREATE OR REPLACE FUNCTION book_search_text(keyword text, want integer) RETURNS TABLE (tier smallint, id integer)
LANGUAGE plpgsql STABLE ROWS 40 AS $$
DECLARE
  rarest text;
  list record;
  batch integer[];
  batch_bucket smallint;
  batch_size integer;
  taken integer := 0;
  added integer;
BEGIN
  SELECT s.gram INTO rarest FROM (
    SELECT g.gram, (SELECT coalesce(sum(p.n), 0) FROM book_postings AS p WHERE p.gram = g.gram) AS total
    FROM (SELECT DISTINCT substr(keyword, i, 2) AS gram FROM generate_series(1, char_length(keyword) - 1) AS i) AS g
  ) AS s
  ORDER BY s.total, s.gram LIMIT 1;
  IF rarest IS NULL OR NOT EXISTS (SELECT 1 FROM book_postings AS p WHERE p.gram = rarest AND p.n > 0) THEN
    RETURN;
  END IF;
  FOR level IN 1..4 LOOP
    batch := '{}';
    batch_bucket := NULL;
    batch_size := greatest(2 * (want - taken), 256);
    FOR list IN
      SELECT p.bucket, p.book_ids FROM book_postings AS p
      WHERE p.gram = rarest AND p.tier <= level AND p.n > 0
      UNION ALL SELECT NULL, NULL  -- the end: check the last batch
      ORDER BY 1 DESC NULLS LAST
    LOOP
      IF list.bucket IS DISTINCT FROM batch_bucket AND (cardinality(batch) >= batch_size OR list.bucket IS NULL) THEN
        -- The stored keys (a key still missing: the database's fold of that field, of that book only), each
        -- compared only where the level needs it: its own field has the keyword, the ones before it have not.
        RETURN QUERY
          SELECT level::smallint, b.id FROM books AS b
          WHERE b.id = ANY (batch) AND CASE level
            WHEN 1 THEN strpos(coalesce(b.search_title, search_fold(left(b.title, 100))), keyword) > 0
            WHEN 2 THEN strpos(coalesce(b.search_aliases, (SELECT string_agg(search_fold(left(a, 50)), ' ')
                  FROM unnest(b.aliases[1:10]) AS a)), keyword) > 0
                AND strpos(coalesce(b.search_title, search_fold(left(b.title, 100))), keyword) = 0
            WHEN 3 THEN strpos(coalesce(b.search_author, search_fold(left(b.author, 50))), keyword) > 0
                AND strpos(coalesce(b.search_title, search_fold(left(b.title, 100))), keyword) = 0
                AND strpos(coalesce(b.search_aliases, (SELECT string_agg(search_fold(left(a, 50)), ' ')
                  FROM unnest(b.aliases[1:10]) AS a), ''), keyword) = 0
            ELSE strpos(b.search_about, keyword) > 0
                AND strpos(coalesce(b.search_title, search_fold(left(b.title, 100))), keyword) = 0
                AND strpos(coalesce(b.search_aliases, (SELECT string_agg(search_fold(left(a, 50)), ' ')
                  FROM unnest(b.aliases[1:10]) AS a), ''), keyword) = 0
                AND strpos(coalesce(b.search_author, search_fold(left(b.author, 50))), keyword) = 0
            END;
        GET DIAGNOSTICS added = ROW_COUNT;
        taken := taken + added;
        IF taken >= want THEN
          RETURN;
        END IF;
        batch := '{}';
        batch_size := batch_size * 2;
      END IF;
      batch := batch || list.book_ids;
      batch_bucket := list.bucket;
    END LOOP;
  END LOOP;
END
$$;
--> statement-breakpoint
DROP FUNCTION book_grams(text, text, text);
--> statement-breakpoint
-- The postings again, in four fields, from the database's fold (the search-keys job fills the server's keys next).
TRUNCATE book_postings;
--> statement-breakpoint
INSERT INTO book_postings (gram, tier, bucket, n, book_ids)
SELECT g.gram, g.tier, b.indexed_bucket, count(*), array_agg(b.id ORDER BY b.id)
FROM books AS b, book_grams_of(b) AS g
WHERE b.published
GROUP BY 1, 2, 3;
