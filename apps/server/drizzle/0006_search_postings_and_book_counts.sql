CREATE TABLE "book_counts" (
	"publish_status" text NOT NULL,
	"category_id" integer NOT NULL,
	"n" integer NOT NULL,
	CONSTRAINT "book_counts_publish_status_category_id_pk" PRIMARY KEY("publish_status","category_id"),
	CONSTRAINT "book_counts_n" CHECK ("book_counts"."n" >= 0)
);
--> statement-breakpoint
CREATE TABLE "book_postings" (
	"gram" text NOT NULL,
	"tier" smallint NOT NULL,
	"bucket" smallint NOT NULL,
	"n" integer NOT NULL,
	"book_ids" integer[] NOT NULL,
	CONSTRAINT "book_postings_tier" CHECK ("book_postings"."tier" between 1 and 3),
	CONSTRAINT "book_postings_n" CHECK ("book_postings"."n" = cardinality("book_postings"."book_ids"))
);
--> statement-breakpoint
CREATE TABLE "chapter_lists" (
	"book_id" integer PRIMARY KEY NOT NULL,
	"list" json NOT NULL
);
--> statement-breakpoint
ALTER TABLE "chapter_lists" ADD CONSTRAINT "chapter_lists_book_id_books_id_fk" FOREIGN KEY ("book_id") REFERENCES "public"."books"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "book_postings_key" ON "book_postings" USING btree ("gram","tier","bucket" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "books_by_status" ON "books" USING btree ("publish_status","read_count" DESC NULLS LAST,"id");--> statement-breakpoint
-- The search index, the list totals and the long books' chapter lists (docs/decisions.md, "Search and lists at
-- 100,000 books"). Hand-written below: the functions and triggers that keep book_postings and book_counts equal to
-- the books and chapter_lists to the chapters, and their first filling.
--
-- The read-count bucket of a book: 0 under 10 reads, one bucket per 10 reads up to 200, then one per 5% more (210,
-- 221, 233, ... up to the int range: 350 bounds), by integer comparison (width_bucket over a sorted array), so it is
-- exact and the same everywhere. Monotonic: a book in a lower bucket has fewer reads than every book in a higher
-- one. A read moves its book to another bucket only every 10 reads or 5% more, whichever is more.
CREATE FUNCTION book_rank_bucket(read_count integer) RETURNS smallint
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT width_bucket(read_count, '{10,20,30,40,50,60,70,80,90,100,110,120,130,140,150,160,170,180,190,200,210,221,233,245,258,271,285,300,315,331,348,366,385,405,426,448,471,495,520,546,574,603,634,666,700,735,772,811,852,895,940,987,1037,1089,1144,1202,1263,1327,1394,1464,1538,1615,1696,1781,1871,1965,2064,2168,2277,2391,2511,2637,2769,2908,3054,3207,3368,3537,3714,3900,4095,4300,4515,4741,4979,5228,5490,5765,6054,6357,6675,7009,7360,7728,8115,8521,8948,9396,9866,10360,10878,11422,11994,12594,13224,13886,14581,15311,16077,16881,17726,18613,19544,20522,21549,22627,23759,24947,26195,27505,28881,30326,31843,33436,35108,36864,38708,40644,42677,44811,47052,49405,51876,54470,57194,60054,63057,66210,69521,72998,76648,80481,84506,88732,93169,97828,102720,107856,113249,118912,124858,131101,137657,144540,151767,159356,167324,175691,184476,193700,203385,213555,224233,235445,247218,259579,272558,286186,300496,315521,331298,347863,365257,383520,402696,422831,443973,466172,489481,513956,539654,566637,594969,624718,655954,688752,723190,759350,797318,837184,879044,922997,969147,1017605,1068486,1121911,1178007,1236908,1298754,1363692,1431877,1503471,1578645,1657578,1740457,1827480,1918854,2014797,2115537,2221314,2332380,2448999,2571449,2700022,2835024,2976776,3125615,3281896,3445991,3618291,3799206,3989167,4188626,4398058,4617961,4848860,5091303,5345869,5613163,5893822,6188514,6497940,6822837,7163979,7522178,7898287,8293202,8707863,9143257,9600420,10080441,10584464,11113688,11669373,12252842,12865485,13508760,14184198,14893408,15638079,16419983,17240983,18103033,19008185,19958595,20956525,22004352,23104570,24259799,25472789,26746429,28083751,29487939,30962336,32510453,34135976,35842775,37634914,39516660,41492493,43567118,45745474,48032748,50434386,52956106,55603912,58384108,61303314,64368480,67586904,70966250,74514563,78240292,82152307,86259923,90572920,95101566,99856645,104849478,110091952,115596550,121376378,127445197,133817457,140508330,147533747,154910435,162655957,170788755,179328193,188294603,197709334,207594801,217974542,228873270,240316934,252332781,264949421,278196893,292106738,306712075,322047679,338150063,355057567,372810446,391450969,411023518,431574694,453153429,475811101,499601657,524581740,550810827,578351369,607268938,637632385,669514005,702989706,738139192,775046152,813798460,854488383,897212803,942073444,989177117,1038635973,1090567772,1145096161,1202350970,1262468519,1325591945,1391871543,1461465121,1534538378,1611265297,1691828562,1776419991,1865240991,1958503041,2056428194}'::integer[])::smallint
$$;
--> statement-breakpoint
-- The grams of a book: every one- and two-character substring of its lowercased title, author and description,
-- each with the first of those fields that has it (1 title, 2 author, 3 description).
CREATE FUNCTION book_grams(title text, author text, about text) RETURNS TABLE (gram text, tier smallint)
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT substr(f.s, i, w), min(f.tier)
  FROM (VALUES (1::smallint, lower(title)), (2::smallint, lower(author)), (3::smallint, lower(about))) AS f (tier, s),
    generate_series(1, char_length(f.s)) AS i, (VALUES (1), (2)) AS l (w)
  WHERE i + w - 1 <= char_length(f.s)
  GROUP BY 1
$$;
--> statement-breakpoint
-- Adds books to the posting lists of their grams. One advisory lock serialises every change of the postings and the
-- counts, so two transactions never wait for each other's rows in opposite orders (a list row is shared by many
-- books). Books are written rarely; a read takes the lock only when it moves its book to another bucket.
CREATE FUNCTION book_postings_add(rows books[]) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_advisory_xact_lock(7311001);
  INSERT INTO book_postings AS p (gram, tier, bucket, n, book_ids)
  SELECT g.gram, g.tier, book_rank_bucket(b.read_count), count(*), array_agg(b.id ORDER BY b.id)
  FROM unnest(rows) AS b, book_grams(b.title, b.author, b.abstract_content) AS g
  GROUP BY 1, 2, 3
  ORDER BY 1, 2, 3
  ON CONFLICT (gram, tier, bucket) DO UPDATE
    SET n = p.n + excluded.n, book_ids = p.book_ids || excluded.book_ids;
END
$$;
--> statement-breakpoint
-- Takes books out of the posting lists they are in (by their grams and bucket as stored). Emptied lists stay, empty.
-- One keyed update per list: a join of the lists with the books' grams would be planned from guessed row counts,
-- and a plan that scans book_postings costs every read that moves its book to another bucket.
CREATE FUNCTION book_postings_remove(rows books[]) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  gone record;
BEGIN
  PERFORM pg_advisory_xact_lock(7311001);
  FOR gone IN
    SELECT g.gram, g.tier, book_rank_bucket(b.read_count) AS bucket, array_agg(b.id) AS ids
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
-- Adds (sign 1) or takes away (sign -1) books from the counts of their publish status and category, under the
-- postings' lock. An update, then an insert for the pairs not counted yet (an INSERT ... ON CONFLICT checks the
-- proposed row, negative for a take-away, against book_counts_n before it finds the conflict).
CREATE FUNCTION book_counts_add(rows books[], sign integer) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_advisory_xact_lock(7311001);
  WITH d AS (
    SELECT b.publish_status, b.category_id, sign * count(*) AS n FROM unnest(rows) AS b GROUP BY 1, 2
  ), changed AS (
    UPDATE book_counts AS c SET n = c.n + d.n
    FROM d WHERE c.publish_status = d.publish_status AND c.category_id = d.category_id
    RETURNING c.publish_status, c.category_id
  )
  INSERT INTO book_counts (publish_status, category_id, n)
  SELECT d.publish_status, d.category_id, d.n FROM d
  WHERE NOT EXISTS (
    SELECT 1 FROM changed WHERE changed.publish_status = d.publish_status AND changed.category_id = d.category_id
  );
END
$$;
--> statement-breakpoint
CREATE FUNCTION books_indexed_insert() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE added books[];
BEGIN
  SELECT array_agg(b) INTO added FROM new_books AS b;
  IF added IS NOT NULL THEN
    PERFORM book_postings_add(added);
    PERFORM book_counts_add(added, 1);
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE FUNCTION books_indexed_delete() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE removed books[];
BEGIN
  SELECT array_agg(b) INTO removed FROM old_books AS b;
  IF removed IS NOT NULL THEN
    PERFORM book_postings_remove(removed);
    PERFORM book_counts_add(removed, -1);
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
-- Row by row (a statement trigger with transition tables cannot be limited to columns): fires only when a searched
-- text, the read-count bucket, the publish status or the category changed, so a read (read_count + 1) that stays
-- in its bucket costs the comparison in the trigger's WHEN and nothing else.
CREATE FUNCTION books_indexed_update() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF (OLD.id, OLD.title, OLD.author, OLD.abstract_content, book_rank_bucket(OLD.read_count))
     IS DISTINCT FROM (NEW.id, NEW.title, NEW.author, NEW.abstract_content, book_rank_bucket(NEW.read_count)) THEN
    PERFORM book_postings_remove(ARRAY[OLD]);
    PERFORM book_postings_add(ARRAY[NEW]);
  END IF;
  IF (OLD.id, OLD.publish_status, OLD.category_id) IS DISTINCT FROM (NEW.id, NEW.publish_status, NEW.category_id) THEN
    PERFORM book_counts_add(ARRAY[OLD], -1);
    PERFORM book_counts_add(ARRAY[NEW], 1);
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE FUNCTION books_indexed_truncate() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  TRUNCATE book_postings, book_counts;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER books_indexed_insert AFTER INSERT ON books REFERENCING NEW TABLE AS new_books
  FOR EACH STATEMENT EXECUTE FUNCTION books_indexed_insert();
--> statement-breakpoint
CREATE TRIGGER books_indexed_delete AFTER DELETE ON books REFERENCING OLD TABLE AS old_books
  FOR EACH STATEMENT EXECUTE FUNCTION books_indexed_delete();
--> statement-breakpoint
CREATE TRIGGER books_indexed_update
  AFTER UPDATE OF id, title, author, abstract_content, read_count, publish_status, category_id ON books
  FOR EACH ROW
  WHEN ((OLD.id, OLD.title, OLD.author, OLD.abstract_content, book_rank_bucket(OLD.read_count), OLD.publish_status, OLD.category_id)
    IS DISTINCT FROM (NEW.id, NEW.title, NEW.author, NEW.abstract_content, book_rank_bucket(NEW.read_count), NEW.publish_status, NEW.category_id))
  EXECUTE FUNCTION books_indexed_update();
--> statement-breakpoint
CREATE TRIGGER books_indexed_truncate AFTER TRUNCATE ON books
  FOR EACH STATEMENT EXECUTE FUNCTION books_indexed_truncate();
--> statement-breakpoint
-- A search for a keyword of three characters or more (lowercased by the caller): (tier, book id) of the books that
-- have it, at least the first `want` of the search's order (tier, then read count), with every book of the last
-- read-count bucket reached. The candidates are the books of the keyword's rarest two-character gram (none when one
-- of its grams is in no book). A book with the keyword in a field has that gram in that field, so its list's tier
-- is that field's or an earlier one: for each tier in turn, the gram's lists of that tier and the earlier ones are
-- read from the top bucket down, their books checked for the whole keyword (first found in this tier's field), a
-- batch of whole buckets at a time (at least 256 books, doubling), until `want` books are found: the lists left
-- hold books of fewer reads, or of a later tier.
CREATE FUNCTION book_search_text(keyword text, want integer) RETURNS TABLE (tier smallint, id integer)
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
  FOR level IN 1..3 LOOP
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
        RETURN QUERY
          SELECT level::smallint, b.id FROM books AS b
          WHERE b.id = ANY (batch)
            AND CASE level
              WHEN 1 THEN strpos(lower(b.title), keyword) > 0
              WHEN 2 THEN strpos(lower(b.author), keyword) > 0 AND strpos(lower(b.title), keyword) = 0
              ELSE strpos(lower(b.abstract_content), keyword) > 0 AND strpos(lower(b.author), keyword) = 0
                AND strpos(lower(b.title), keyword) = 0
            END;
        GET DIAGNOSTICS added = ROW_COUNT;
        taken := taken + added;
        -- Enough books, and the buckets they reach are complete.
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
-- A book's chapters as one JSON value, five columns in chapter order: [numbers, titles, covers, prices, ids]; null
-- when it has none. One value instead of a row per chapter: PGlite hands a row over field by field in JavaScript.
CREATE FUNCTION chapter_list_json(book integer) RETURNS json
LANGUAGE sql STABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN count(*) > 0 THEN json_build_array(
    array_agg(c.number ORDER BY c.number), array_agg(c.title ORDER BY c.number), array_agg(c.cover ORDER BY c.number),
    array_agg(c.price ORDER BY c.number), array_agg(c.id ORDER BY c.number)) END
  FROM chapters AS c WHERE c.book_id = book
$$;
--> statement-breakpoint
-- Rebuilds the ready-made lists of these books: kept for a book of 200 chapters or more, dropped below. Under a lock
-- of its own, and each statement with a new snapshot (READ COMMITTED), so two transactions that change one book's
-- chapters at once leave the list of both changes.
CREATE FUNCTION chapter_lists_refresh(book_ids integer[]) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_advisory_xact_lock(7311002);
  DELETE FROM chapter_lists AS l
  WHERE l.book_id = ANY (book_ids) AND (SELECT count(*) FROM chapters AS c WHERE c.book_id = l.book_id) < 200;
  INSERT INTO chapter_lists AS l (book_id, list)
  SELECT b.id, chapter_list_json(b.id)
  FROM (SELECT DISTINCT unnest(book_ids) AS id) AS b
  WHERE (SELECT count(*) FROM chapters AS c WHERE c.book_id = b.id) >= 200
    AND EXISTS (SELECT 1 FROM books WHERE books.id = b.id)
  ORDER BY b.id
  ON CONFLICT (book_id) DO UPDATE SET list = excluded.list;
END
$$;
--> statement-breakpoint
CREATE FUNCTION chapters_listed_insert() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM chapter_lists_refresh(ARRAY(SELECT DISTINCT c.book_id FROM new_chapters AS c));
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE FUNCTION chapters_listed_update() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM chapter_lists_refresh(ARRAY(
    SELECT c.book_id FROM new_chapters AS c UNION SELECT c.book_id FROM old_chapters AS c));
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE FUNCTION chapters_listed_delete() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM chapter_lists_refresh(ARRAY(SELECT DISTINCT c.book_id FROM old_chapters AS c));
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE FUNCTION chapters_listed_truncate() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  TRUNCATE chapter_lists;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER chapters_listed_insert AFTER INSERT ON chapters REFERENCING NEW TABLE AS new_chapters
  FOR EACH STATEMENT EXECUTE FUNCTION chapters_listed_insert();
--> statement-breakpoint
CREATE TRIGGER chapters_listed_update AFTER UPDATE ON chapters REFERENCING OLD TABLE AS old_chapters NEW TABLE AS new_chapters
  FOR EACH STATEMENT EXECUTE FUNCTION chapters_listed_update();
--> statement-breakpoint
CREATE TRIGGER chapters_listed_delete AFTER DELETE ON chapters REFERENCING OLD TABLE AS old_chapters
  FOR EACH STATEMENT EXECUTE FUNCTION chapters_listed_delete();
--> statement-breakpoint
CREATE TRIGGER chapters_listed_truncate AFTER TRUNCATE ON chapters
  FOR EACH STATEMENT EXECUTE FUNCTION chapters_listed_truncate();
--> statement-breakpoint
-- The books already there.
INSERT INTO book_postings (gram, tier, bucket, n, book_ids)
SELECT g.gram, g.tier, book_rank_bucket(b.read_count), count(*), array_agg(b.id ORDER BY b.id)
FROM books AS b, book_grams(b.title, b.author, b.abstract_content) AS g
GROUP BY 1, 2, 3;
--> statement-breakpoint
INSERT INTO book_counts (publish_status, category_id, n)
SELECT publish_status, category_id, count(*) FROM books GROUP BY 1, 2;
--> statement-breakpoint
INSERT INTO chapter_lists (book_id, list)
SELECT c.book_id, chapter_list_json(c.book_id) FROM chapters AS c GROUP BY c.book_id HAVING count(*) >= 200;
