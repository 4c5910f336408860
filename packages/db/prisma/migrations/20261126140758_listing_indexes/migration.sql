-- The component listings without reading a whole organization: the dashboard's order
-- from an index, and two-character name fragments, which have no trigrams, from an
-- index of their own.

-- CreateIndex
CREATE INDEX "components_organization_id_updated_at_id_idx" ON "components"("organization_id", "updated_at" DESC, "id");

-- Hand-written from here: Prisma's schema language cannot declare an index on an
-- expression, and its diff ignores one, so the schema and the migrations stay in sync.
-- A name contains a two-character fragment exactly when the fragment is one of the
-- name's two-character substrings (PostgreSQL counts characters, as the listing does).
CREATE FUNCTION "name_bigrams"("name" text) RETURNS text[]
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
  AS $$ SELECT ARRAY(SELECT DISTINCT substr("name", i, 2) FROM generate_series(1, length("name") - 1) AS i) $$;

-- Without GIN's pending list, as components_name_key_trgm_idx (see its migration).
CREATE INDEX "components_name_key_bigram_idx" ON "components" USING GIN ("organization_id" uuid_ops, "name_bigrams"("name_key")) WITH (fastupdate = off);
