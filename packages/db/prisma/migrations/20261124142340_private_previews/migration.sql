-- AlterTable
ALTER TABLE "organizations" ADD COLUMN     "private_previews" BOOLEAN NOT NULL DEFAULT false;

-- CreateTable
CREATE TABLE "preview_keys" (
    "id" UUID NOT NULL,
    "organization_id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "prefix" TEXT NOT NULL,
    "secret_hash" TEXT NOT NULL,
    "created_by" UUID NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL,
    "revoked_at" TIMESTAMPTZ(3),

    CONSTRAINT "preview_keys_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "preview_keys_secret_hash_key" ON "preview_keys"("secret_hash");

-- CreateIndex
CREATE INDEX "preview_keys_organization_id_created_at_idx" ON "preview_keys"("organization_id", "created_at");

-- AddForeignKey
ALTER TABLE "preview_keys" ADD CONSTRAINT "preview_keys_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Change notifications for private previews (apps/delivery-api, README "Private
-- previews"). Hand-written, like delivery_change_notifications: Prisma's diff
-- ignores triggers.
-- Channel private_change reaches the delivery API's response cache only, never
-- the anonymous GET /changes streams: a new variant of an organization with
-- private previews is a preview upload, announced on it instead of
-- component_changed; a change of the switch announces the organization's id, on
-- which every cached preview of its components depends.

CREATE OR REPLACE FUNCTION "notify_variant_changed"() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  row_component_id UUID;
  channel TEXT;
BEGIN
  IF TG_OP = 'DELETE' THEN
    row_component_id := OLD."component_id";
  ELSE
    row_component_id := NEW."component_id";
  END IF;
  SELECT CASE WHEN o."private_previews" THEN 'private_change' ELSE 'component_changed' END INTO channel
    FROM "components" c JOIN "organizations" o ON o."id" = c."organization_id"
    WHERE c."id" = row_component_id;
  PERFORM pg_notify(COALESCE(channel, 'component_changed'), row_component_id::text);
  IF TG_OP = 'UPDATE' AND OLD."component_id" IS DISTINCT FROM NEW."component_id" THEN
    PERFORM pg_notify('component_changed', OLD."component_id"::text);
  END IF;
  RETURN NULL;
END;
$$;

DROP TRIGGER "variants_notify_change" ON "variants";
CREATE TRIGGER "variants_notify_change"
  AFTER INSERT OR UPDATE OR DELETE ON "variants"
  FOR EACH ROW EXECUTE FUNCTION "notify_variant_changed"();

CREATE OR REPLACE FUNCTION "notify_private_previews_changed"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF OLD."private_previews" IS DISTINCT FROM NEW."private_previews" THEN
    PERFORM pg_notify('private_change', NEW."id"::text);
  END IF;
  RETURN NULL;
END;
$$;

CREATE TRIGGER "organizations_notify_private_previews"
  AFTER UPDATE OF "private_previews" ON "organizations"
  FOR EACH ROW EXECUTE FUNCTION "notify_private_previews_changed"();
