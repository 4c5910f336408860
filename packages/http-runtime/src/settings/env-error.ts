/**
 * A bad setting: what every service's `parseEnv` throws, listing every problem at
 * once, one line each ("NAME: what is wrong"). `envLoader` prints the message and
 * exits with status 78 (EX_CONFIG).
 */
export class EnvError extends Error {
  override readonly name = 'EnvError';
  readonly problems: readonly string[];

  constructor(problems: readonly string[]) {
    super(`Invalid configuration:\n${problems.map((problem) => `  ${problem}`).join('\n')}`);
    this.problems = problems;
  }
}
