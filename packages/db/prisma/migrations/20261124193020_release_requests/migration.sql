-- CreateEnum
CREATE TYPE "release_request_state" AS ENUM ('pending', 'approved', 'declined');

-- CreateTable
CREATE TABLE "release_requests" (
    "id" UUID NOT NULL,
    "component_id" UUID NOT NULL,
    "environment_id" UUID NOT NULL,
    "variant_id" UUID NOT NULL,
    "requested_by" UUID NOT NULL,
    "requested_at" TIMESTAMPTZ(3) NOT NULL,
    "state" "release_request_state" NOT NULL DEFAULT 'pending',
    "decided_by" UUID,
    "decided_at" TIMESTAMPTZ(3),
    "decline_reason" TEXT,
    "release_event_id" UUID,

    CONSTRAINT "release_requests_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "release_requests_component_id_requested_at_idx" ON "release_requests"("component_id", "requested_at" DESC);

-- CreateIndex
CREATE INDEX "release_requests_environment_id_idx" ON "release_requests"("environment_id");

-- CreateIndex
CREATE INDEX "release_requests_variant_id_idx" ON "release_requests"("variant_id");

-- AddForeignKey
ALTER TABLE "release_requests" ADD CONSTRAINT "release_requests_component_id_fkey" FOREIGN KEY ("component_id") REFERENCES "components"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "release_requests" ADD CONSTRAINT "release_requests_environment_id_fkey" FOREIGN KEY ("environment_id") REFERENCES "environments"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "release_requests" ADD CONSTRAINT "release_requests_variant_id_fkey" FOREIGN KEY ("variant_id") REFERENCES "variants"("id") ON DELETE NO ACTION ON UPDATE CASCADE;

-- Written by hand (Prisma's schema cannot express them).
-- At most one pending request per (component, environment): a second request meets the first.
CREATE UNIQUE INDEX "release_requests_one_pending_idx" ON "release_requests"("component_id", "environment_id") WHERE "state" = 'pending';

-- A decided request names who decided and when; only a declined one has a reason, only an approved one a release.
ALTER TABLE "release_requests" ADD CONSTRAINT "release_requests_decision_check" CHECK (
  ("state" = 'pending') = ("decided_by" IS NULL AND "decided_at" IS NULL)
  AND ("decline_reason" IS NOT NULL) = ("state" = 'declined')
  AND ("release_event_id" IS NOT NULL) = ("state" = 'approved')
);
