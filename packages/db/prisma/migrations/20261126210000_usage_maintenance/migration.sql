-- The usage analytics' maintenance (docs/usage-analytics.md, "Jobs"): two queues the worker's
-- cron schedules feed, and pg-boss's own queue for scheduled sends, which pg-boss would
-- otherwise create (DDL) when a worker starts with schedules on. "stately": at most one job
-- waiting and one running per queue, so several workers never stack up the same round.
SELECT jobs.create_queue('__pgboss__send-it', '{"policy":"standard","retryLimit":2,"retryDelay":0,"retryBackoff":false,"expireInSeconds":900,"retentionMinutes":20160}'::json);
SELECT jobs.create_queue('usage-rollup', '{"policy":"stately","retryLimit":2,"retryDelay":30,"retryBackoff":false,"expireInSeconds":600,"retentionMinutes":1440}'::json);
SELECT jobs.create_queue('usage-retention', '{"policy":"stately","retryLimit":3,"retryDelay":60,"retryBackoff":true,"expireInSeconds":900,"retentionMinutes":1440}'::json);

-- B-tree instead of BRIN on the rollups' time columns. BRIN summaries only widen: the rollups
-- are pruned by DELETE, their space reused by new rows and by the updates of ON CONFLICT, so
-- after weeks every block range spans old and new times and each hourly prune (`minute <
-- cutoff`, `hour < cutoff`) reads the whole table. A B-tree reads the hour it deletes, and
-- gives the last rolled hour from its end. The raw events keep BRIN: their partitions are only
-- appended to, then dropped whole.
DROP INDEX "usage"."minutes_minute_brin";
CREATE INDEX "minutes_minute_idx" ON "usage"."minutes" ("minute");
DROP INDEX "usage"."hours_hour_brin";
CREATE INDEX "hours_hour_idx" ON "usage"."hours" ("hour");
