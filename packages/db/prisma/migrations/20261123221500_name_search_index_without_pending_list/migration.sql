-- The name search index takes each insert at once instead of queueing it in GIN's
-- pending list: every search reads that whole list until it is merged, which on a
-- server waits for autovacuum and in PGlite (no autovacuum) until the list is full.
-- Components are created one upload at a time, so the slower insert costs little.
-- Hand-written: Prisma's schema language cannot declare index storage parameters, and
-- its diff ignores them, so the schema and the migrations stay in sync.

ALTER INDEX "components_name_key_trgm_idx" SET (fastupdate = off);

-- Merges what an earlier insert left in the list.
SELECT gin_clean_pending_list('components_name_key_trgm_idx');
