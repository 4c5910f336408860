-- The rollout guard's queue (apps/worker, "Rollout guard"): one round a minute, stately (one
-- waiting round at most), not retried (the next round comes a minute later).
SELECT jobs.create_queue('rollout-guard', '{"policy":"stately","retryLimit":0,"retryDelay":0,"retryBackoff":false,"expireInSeconds":300,"retentionMinutes":1440}'::json);
