-- Usage analytics (docs/usage-analytics.md). Hand-written, in a schema of its own: Prisma cannot
-- declare partitioned tables, and it diffs only the `public` schema, so nothing here ever shows
-- up in `pnpm db:migration:new`. Nothing stored here identifies a person (SECURITY.md, "Usage
-- analytics": no IP address, no user agent, no host user id, no payload).
CREATE SCHEMA "usage";

-- Raw events, one partition per UTC day ("events_YYYYMMDD"), created ahead and dropped after
-- the retention by the worker (UsageMaintenance). BRIN on time: rows arrive in time order, so
-- a few pages of index cover a day, and a time range reads only its blocks.
CREATE TABLE "usage"."events" (
    "at" TIMESTAMPTZ(3) NOT NULL,
    "component_id" UUID NOT NULL,
    "environment" TEXT NOT NULL,
    "variant_id" UUID NOT NULL,
    "type" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "value" DOUBLE PRECISION,
    "cache_hit" BOOLEAN,
    "isolation" TEXT NOT NULL,
    "sdk_version" TEXT NOT NULL,
    "host_name" TEXT NOT NULL,
    "session_id" TEXT NOT NULL,
    "sequence" INTEGER NOT NULL,
    "sample_rate" REAL NOT NULL,
    "browser" TEXT NOT NULL,
    "error_class" TEXT,
    "error_message" TEXT,
    "stack_hash" TEXT
) PARTITION BY RANGE ("at");
CREATE INDEX "events_at_brin" ON "usage"."events" USING BRIN ("at");

-- The latency histogram of packages/domain/src/rules/latency-histogram.ts: 40 counts, added
-- element by element. NULL stands for "no durations" (errors, interactions, served counts).
CREATE FUNCTION "usage"."histogram_add"("a" INTEGER[], "b" INTEGER[]) RETURNS INTEGER[]
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT CASE WHEN "a" IS NULL THEN "b" WHEN "b" IS NULL THEN "a"
               ELSE ARRAY(SELECT "x" + "y" FROM unnest("a", "b") WITH ORDINALITY AS "t"("x", "y", "i") ORDER BY "i") END $$;
CREATE AGGREGATE "usage"."histogram_sum"(INTEGER[]) (SFUNC = "usage"."histogram_add", STYPE = INTEGER[]);

-- Rollups, per minute (written with the raw events, in the same statement) and per hour (from
-- the minutes, by the worker). Keyed by component first: every read is one component's range.
-- `errors` counts the key's error events; `sum` adds the values (ms) for averages.
CREATE TABLE "usage"."minutes" (
    "component_id" UUID NOT NULL REFERENCES "public"."components"("id") ON DELETE CASCADE,
    "minute" TIMESTAMPTZ(3) NOT NULL,
    "environment" TEXT NOT NULL,
    "variant_id" UUID NOT NULL,
    "type" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "count" BIGINT NOT NULL,
    "errors" BIGINT NOT NULL,
    "sum" DOUBLE PRECISION NOT NULL,
    "histogram" INTEGER[],
    CONSTRAINT "minutes_pkey" PRIMARY KEY ("component_id", "minute", "environment", "variant_id", "type", "name")
);
CREATE INDEX "minutes_minute_brin" ON "usage"."minutes" USING BRIN ("minute");

CREATE TABLE "usage"."hours" (
    "component_id" UUID NOT NULL REFERENCES "public"."components"("id") ON DELETE CASCADE,
    "hour" TIMESTAMPTZ(3) NOT NULL,
    "environment" TEXT NOT NULL,
    "variant_id" UUID NOT NULL,
    "type" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "count" BIGINT NOT NULL,
    "errors" BIGINT NOT NULL,
    "sum" DOUBLE PRECISION NOT NULL,
    "histogram" INTEGER[],
    CONSTRAINT "hours_pkey" PRIMARY KEY ("component_id", "hour", "environment", "variant_id", "type", "name")
);
CREATE INDEX "hours_hour_brin" ON "usage"."hours" USING BRIN ("hour");

-- Errors grouped by stack hash, with the latest class and message seen for it.
CREATE TABLE "usage"."error_groups" (
    "component_id" UUID NOT NULL REFERENCES "public"."components"("id") ON DELETE CASCADE,
    "environment" TEXT NOT NULL,
    "variant_id" UUID NOT NULL,
    "stack_hash" TEXT NOT NULL,
    "error_class" TEXT NOT NULL,
    "message" TEXT NOT NULL,
    "count" BIGINT NOT NULL,
    "first_seen" TIMESTAMPTZ(3) NOT NULL,
    "last_seen" TIMESTAMPTZ(3) NOT NULL,
    CONSTRAINT "error_groups_pkey" PRIMARY KEY ("component_id", "environment", "variant_id", "stack_hash")
);
CREATE INDEX "error_groups_last_seen_idx" ON "usage"."error_groups" ("component_id", "last_seen");
