export { createUsageWriter } from './usage-writer.js';
export { createUsageReader } from './usage-reader.js';
export { createDailyPartitions, partitionName, utcDay, addDays } from './partitions.js';
