-- Daily totals per component, environment, variant and type (no name, no histogram), recomputed
-- from the hourly rollups by the worker: what the organization's usage page adds up over every
-- component of an organization, which the hourly rows make too many to sum per page view.
CREATE TABLE "usage"."days" (
    "component_id" UUID NOT NULL REFERENCES "public"."components"("id") ON DELETE CASCADE,
    "day" TIMESTAMPTZ(3) NOT NULL,
    "environment" TEXT NOT NULL,
    "variant_id" UUID NOT NULL,
    "type" TEXT NOT NULL,
    "count" BIGINT NOT NULL,
    "errors" BIGINT NOT NULL,
    CONSTRAINT "days_pkey" PRIMARY KEY ("component_id", "day", "environment", "variant_id", "type")
);
CREATE INDEX "days_day_idx" ON "usage"."days" ("day");
