-- Name-filtered listings in name order without reading every match: one row per
-- distinct three-character substring of each component's name_key, in name order
-- per (organization, trigram), so a listing walks the rows of one of the fragment's
-- trigrams in its own order and stops once the page is full.

-- CreateTable
CREATE TABLE "component_name_trigrams" (
    "organization_id" UUID NOT NULL,
    "trigram" TEXT NOT NULL,
    "name_key" TEXT NOT NULL,
    "component_id" UUID NOT NULL,

    CONSTRAINT "component_name_trigrams_pkey" PRIMARY KEY ("organization_id","trigram","name_key","component_id")
);

-- Hand-written from here: Prisma's diff ignores functions and triggers, so the schema
-- and the migrations stay in sync.
-- The name's three-character substrings (not pg_trgm's word-padded trigrams: a name
-- holds a fragment only if it holds each of these substrings of the fragment).
CREATE FUNCTION "name_trigrams"("name" text) RETURNS text[]
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
  AS $$ SELECT ARRAY(SELECT DISTINCT substr("name", i, 3) FROM generate_series(1, length("name") - 2) AS i) $$;

-- Kept in the writer's transaction by triggers, so every statement that writes
-- components keeps the table in step, with no code path to forget. Inserts and
-- deletes (organization deletion cascades here too) once per statement, over all its
-- rows; a rename once per renamed row.
CREATE FUNCTION "component_name_trigrams_insert"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "component_name_trigrams" ("organization_id", "trigram", "name_key", "component_id")
  SELECT n."organization_id", t, n."name_key", n."id" FROM "added" n, unnest("name_trigrams"(n."name_key")) AS t;
  RETURN NULL;
END $$;

CREATE FUNCTION "component_name_trigrams_delete"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "component_name_trigrams" r USING "removed" o, unnest("name_trigrams"(o."name_key")) AS t
  WHERE r."organization_id" = o."organization_id" AND r."trigram" = t AND r."name_key" = o."name_key" AND r."component_id" = o."id";
  RETURN NULL;
END $$;

CREATE FUNCTION "component_name_trigrams_rename"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "component_name_trigrams"
  WHERE "organization_id" = OLD."organization_id" AND "trigram" = ANY("name_trigrams"(OLD."name_key"))
    AND "name_key" = OLD."name_key" AND "component_id" = OLD."id";
  INSERT INTO "component_name_trigrams" ("organization_id", "trigram", "name_key", "component_id")
  SELECT NEW."organization_id", t, NEW."name_key", NEW."id" FROM unnest("name_trigrams"(NEW."name_key")) AS t;
  RETURN NULL;
END $$;

CREATE TRIGGER "components_name_trigrams_insert" AFTER INSERT ON "components"
  REFERENCING NEW TABLE AS "added" FOR EACH STATEMENT EXECUTE FUNCTION "component_name_trigrams_insert"();
CREATE TRIGGER "components_name_trigrams_delete" AFTER DELETE ON "components"
  REFERENCING OLD TABLE AS "removed" FOR EACH STATEMENT EXECUTE FUNCTION "component_name_trigrams_delete"();
CREATE TRIGGER "components_name_trigrams_rename" AFTER UPDATE OF "name_key", "organization_id", "id" ON "components"
  FOR EACH ROW
  WHEN (OLD."name_key" IS DISTINCT FROM NEW."name_key" OR OLD."organization_id" IS DISTINCT FROM NEW."organization_id" OR OLD."id" IS DISTINCT FROM NEW."id")
  EXECUTE FUNCTION "component_name_trigrams_rename"();

-- The components already there.
INSERT INTO "component_name_trigrams" ("organization_id", "trigram", "name_key", "component_id")
SELECT c."organization_id", t, c."name_key", c."id" FROM "components" c, unnest("name_trigrams"(c."name_key")) AS t;
