// What the checks found: problems ("where: what") and the lines of what passed.
export function createReport() {
  const problems = [];
  const passed = [];
  return {
    fail: (where, message) => problems.push(`${where}: ${message}`),
    pass: (line) => passed.push(line),
    /** Prints every problem and exits 1, or prints what passed. */
    finish() {
      if (problems.length > 0) {
        console.error(
          `docker static checks: ${problems.length} problem${problems.length === 1 ? '' : 's'}`,
        );
        for (const problem of problems) console.error(`  ${problem}`);
        process.exit(1);
      }
      for (const line of passed) console.log(`ok  ${line}`);
    },
  };
}
