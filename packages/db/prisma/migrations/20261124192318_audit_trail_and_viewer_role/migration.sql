-- AlterEnum
ALTER TYPE "membership_role" ADD VALUE 'viewer';

-- CreateTable
CREATE TABLE "audit_events" (
    "id" UUID NOT NULL,
    "seq" BIGSERIAL NOT NULL,
    "organization_id" UUID NOT NULL,
    "actor_id" UUID NOT NULL,
    "kind" TEXT NOT NULL,
    "component_id" UUID,
    "subject_user_id" UUID,
    "details" JSONB NOT NULL DEFAULT '{}',
    "created_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "audit_events_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "audit_events_seq_key" ON "audit_events"("seq");

-- CreateIndex
CREATE INDEX "audit_events_organization_id_seq_idx" ON "audit_events"("organization_id", "seq" DESC);

-- CreateIndex
CREATE INDEX "audit_events_organization_id_component_id_seq_idx" ON "audit_events"("organization_id", "component_id", "seq" DESC);

-- CreateIndex
CREATE INDEX "audit_events_organization_id_actor_id_seq_idx" ON "audit_events"("organization_id", "actor_id", "seq" DESC);

-- CreateIndex
CREATE INDEX "audit_events_organization_id_kind_seq_idx" ON "audit_events"("organization_id", "kind", "seq" DESC);

-- AddForeignKey
ALTER TABLE "audit_events" ADD CONSTRAINT "audit_events_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- The trail is append-only: a row is never rewritten, whatever the client (deleting an
-- organization still removes its rows through the cascade).
CREATE FUNCTION "audit_events_refuse_update"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'audit_events rows are never updated';
END;
$$;

CREATE TRIGGER "audit_events_no_update" BEFORE UPDATE ON "audit_events"
  FOR EACH ROW EXECUTE FUNCTION "audit_events_refuse_update"();
