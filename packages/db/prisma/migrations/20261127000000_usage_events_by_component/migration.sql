-- The rollout guard's read (src/usage/rollout-figures.ts), every minute per live rollout: one
-- component's sessions in one environment over a window. The BRIN index on time alone reads
-- every component's events of the window; this one reads only that component's. Declared on the
-- partitioned table, so each day partition, those created later included, gets its own.
CREATE INDEX "events_component_environment_at_idx" ON "usage"."events" ("component_id", "environment", "at");
