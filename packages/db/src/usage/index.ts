export { createUsageWriter } from './usage-writer.js';
export { createDailyPartitions, partitionName, utcDay, addDays } from './partitions.js';
