export { createUsageWriter } from './usage-writer.js';
export { createUsageMaintenance } from './usage-maintenance.js';
export { countRawEvents, COUNT_RAW_EVENTS_SQL, type RawEventCount } from './raw-event-counts.js';
export { createUsageReader } from './usage-reader.js';
export { createDailyPartitions, partitionName, utcDay, addDays } from './partitions.js';
export { createRolloutFigures, ROLLOUT_SESSIONS_SQL } from './rollout-figures.js';
