-- The name filter of the component listings (name_key LIKE '%fragment%') served by a
-- trigram index instead of a scan of the organization's components.
-- The extensions are created here by hand: the schema declares only the index. With
-- Prisma's postgresqlExtensions preview feature the diff of the migrations against the
-- schema kept asking for them again, and without it the diff ignores extensions.
-- Both are trusted extensions (PostgreSQL 13 and later): the database's owner, or any role
-- with CREATE on the database, may create them without being a superuser.

-- CreateExtension
CREATE EXTENSION IF NOT EXISTS "btree_gin";

-- CreateExtension
CREATE EXTENSION IF NOT EXISTS "pg_trgm";

-- CreateIndex
CREATE INDEX "components_name_key_trgm_idx" ON "components" USING GIN ("organization_id" uuid_ops, "name_key" gin_trgm_ops);
