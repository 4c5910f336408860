-- CreateTable
CREATE TABLE "static_exports" (
    "organization_id" UUID NOT NULL,
    "enabled" BOOLEAN NOT NULL,
    "changed_at" TIMESTAMPTZ(3) NOT NULL,
    "exported_at" TIMESTAMPTZ(3),
    "last_error" TEXT,
    "last_error_at" TIMESTAMPTZ(3),

    CONSTRAINT "static_exports_pkey" PRIMARY KEY ("organization_id")
);

-- AddForeignKey
ALTER TABLE "static_exports" ADD CONSTRAINT "static_exports_organization_id_fkey" FOREIGN KEY ("organization_id") REFERENCES "organizations"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- The static export's job queue (packages/db/src/jobs/queues.ts): retried with backoff (30 s, doubling) ten times.
SELECT jobs.create_queue('static-export', '{"policy":"standard","retryLimit":10,"retryDelay":30,"retryBackoff":true,"expireInSeconds":300,"retentionMinutes":20160}'::json);
