import { createJobBoss } from '@cp/db';
import type { TestDatabase } from '@cp/db/testing';
import { silentLogger } from '@cp/http-runtime';
import { createApp, type staticExportJob, type WorkerApp } from '../../src/index.js';

/** A started worker running `job` on the test database, recording each attempt's retry count in `attempts`. */
export async function startCountingWorker(db: TestDatabase, job: ReturnType<typeof staticExportJob>, attempts: number[]): Promise<WorkerApp> {
  const worker = createApp({
    boss: createJobBoss(db.database.jobsDb),
    log: silentLogger(),
    pollingIntervalSeconds: 0.5,
    jobs: [
      {
        ...job,
        handler: async (j) => {
          attempts.push(j.retryCount);
          await job.handler(j);
        },
      },
    ],
  });
  await worker.start();
  return worker;
}
