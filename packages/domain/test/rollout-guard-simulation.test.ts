import { randomUUID } from 'node:crypto';
import {
  DEFAULT_GUARD_SETTINGS,
  DEFAULT_ROLLOUT_STAGES,
  RolloutState,
  type ArmSessions,
  type GuardWindow,
  type Rollout,
  type RolloutStage,
} from '../src/entities/rollout.js';
import type { RolloutFigures } from '../src/ports/rollouts.js';
import { bucketOf } from '../src/rules/assignment.js';
import { createInMemoryRepositories } from '../src/testing/in-memory-repositories.js';
import { seededRandom } from '../src/testing/seeded-random.js';
import { ManualClock } from '../src/testing/test-deps.js';
import { evaluateRollouts } from '../src/use-cases/rollouts/evaluate-rollouts.js';

/*
 * The guard (rules/rollout-guard.ts) run as the guard job runs it (evaluateRollouts, the real use
 * case, on the in-memory Rollouts) against simulated usage, minute by minute, with a clock the
 * simulation moves. Users are a population of keys; a user gets the candidate when
 * bucketOf(salt, key) < weight, so each minute's sessions split between the arms as the users
 * arriving do. Sessions arrive as a Poisson stream and each reports an error with its arm's
 * probability; by Poisson thinning, each arm's clean and error sessions of a minute are
 * independent Poisson counts, drawn in aggregate (the same distribution as drawing every session).
 */

// Module-scope copies: a global looked up in a hot loop is many times slower in jest's vm context.
const { exp, floor, max, min, round, sqrt, log, cos, PI } = Math;
const MINUTE = 60_000;
const T0 = Date.parse('2026-03-02T00:00:00.000Z');
const minuteOf = (time: Date) => floor((time.getTime() - T0) / MINUTE);

/** A Poisson draw by inversion (means here stay far below where exp(-mean) underflows). */
function poisson(random: () => number, mean: number): number {
  if (mean <= 0) return 0;
  if (mean > 500) return max(0, round(mean + sqrt(mean) * sqrt(-2 * log(1 - random())) * cos(2 * PI * random())));
  let k = 0;
  let p = exp(-mean);
  let cumulative = p;
  const u = random();
  while (u > cumulative) {
    k++;
    p *= mean / k;
    cumulative += p;
    if (p === 0) break;
  }
  return k;
}

/** The users of the simulated site: their share of the candidate at each weight, by the real hash. */
class Population {
  private readonly sorted = new Map<string, number[]>();
  constructor(private readonly size: number) {}
  candidateShare(salt: string, weight: number): number {
    let buckets = this.sorted.get(salt);
    if (!buckets) {
      buckets = Array.from({ length: this.size }, (_, i) => bucketOf(salt, `user-${i}`)).sort((a, b) => a - b);
      this.sorted.set(salt, buckets);
    }
    let [low, high] = [0, buckets.length];
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (buckets[mid]! < weight) low = mid + 1;
      else high = mid;
    }
    return low / buckets.length;
  }
}

/** RolloutFigures over the simulated sessions of the two arms: running totals by minute since T0. */
class SimulatedUsage implements RolloutFigures {
  /** Per variant: sessions and error sessions before each minute (index 0: none). */
  private readonly totals: Map<string, { sessions: Int32Array; errors: Int32Array }>;
  private minutes = 0;

  constructor(variantIds: readonly string[], capacity: number) {
    this.totals = new Map(variantIds.map((id) => [id, { sessions: new Int32Array(capacity + 1), errors: new Int32Array(capacity + 1) }]));
  }

  /** One more minute of sessions, per variant in the order the constructor named them. */
  record(...arms: ArmSessions[]): void {
    let i = 0;
    for (const series of this.totals.values()) {
      const arm = arms[i++]!;
      series.sessions[this.minutes + 1] = series.sessions[this.minutes]! + arm.sessions;
      series.errors[this.minutes + 1] = series.errors[this.minutes]! + arm.errorSessions;
    }
    this.minutes++;
  }

  /** Sessions of the minutes in [from, to), minutes counted from T0. */
  between(variantId: string, from: number, to: number): ArmSessions {
    const series = this.totals.get(variantId)!;
    const [a, b] = [min(from, this.minutes), min(to, this.minutes)];
    return { sessions: series.sessions[b]! - series.sessions[a]!, errorSessions: series.errors[b]! - series.errors[a]! };
  }

  async sessions(input: Parameters<RolloutFigures['sessions']>[0]): Promise<Map<string, ArmSessions>> {
    const [from, to] = [minuteOf(input.from), minuteOf(input.to)];
    return new Map(input.variantIds.map((id) => [id, this.between(id, from, to)]));
  }
}

interface Scenario {
  readonly sessionsPerDay: number;
  readonly errorRate: { readonly candidate: number; readonly release: number };
  readonly stages: readonly RolloutStage[];
  readonly minutes: number;
  /** Stop once this many windows closed. */
  readonly maxWindows?: number;
  /**
   * `window-fills`: call the guard only at minutes where the open window holds enough candidate
   * sessions. With one stage there is nothing to advance, so every other minute it can only wait.
   */
  readonly evaluate: 'every-minute' | 'window-fills';
}

const population = new Population(10_000);
const CANDIDATE = randomUUID();
const RELEASE = randomUUID();

/** One rollout, simulated minute by minute until it ends, `minutes` pass, or `maxWindows` closed. */
async function simulate(scenario: Scenario, random: () => number, salt: string): Promise<{ rollout: Rollout; windows: GuardWindow[] }> {
  const repos = createInMemoryRepositories();
  const [organizationId, componentId, environmentId] = [randomUUID(), randomUUID(), randomUUID()];
  repos.state.environments.push({ id: environmentId, organizationId, name: 'prod', protected: false, createdAt: new Date(T0) });
  repos.state.releases.push({ componentId, environmentId, environmentName: 'prod', variantId: RELEASE, releasedBy: 'someone', releasedAt: new Date(T0) });
  const clock = new ManualClock(new Date(T0));
  const usage = new SimulatedUsage([CANDIDATE, RELEASE], scenario.minutes);
  const deps = { repos, clock, ids: { newId: () => randomUUID() }, figures: usage };
  let rollout = await repos.rollouts.start({
    id: randomUUID(),
    componentId,
    environmentId,
    candidateVariantId: CANDIDATE,
    baselineVariantId: RELEASE,
    salt,
    stages: scenario.stages,
    guard: DEFAULT_GUARD_SETTINGS,
    startedBy: 'someone',
    now: clock.now(),
    audit: { eventId: randomUUID(), actorId: 'someone' },
  });
  const perMinute = scenario.sessionsPerDay / 1440;
  const arm = (mean: number, errorRate: number): ArmSessions => {
    const errorSessions = poisson(random, mean * errorRate);
    return { sessions: errorSessions + poisson(random, mean * (1 - errorRate)), errorSessions };
  };
  let [share, windowStart, clockMinute, windows] = [population.candidateShare(salt, rollout.weight), 0, 0, 0];
  for (let minute = 1; minute <= scenario.minutes; minute++) {
    usage.record(arm(perMinute * share, scenario.errorRate.candidate), arm(perMinute * (1 - share), scenario.errorRate.release));
    if (scenario.evaluate === 'window-fills' && usage.between(CANDIDATE, windowStart, minute).sessions < rollout.guard.windowSessions) continue;
    clock.advance((minute - clockMinute) * 60);
    clockMinute = minute;
    const { failures, rounds } = await evaluateRollouts(deps);
    if (failures[0]) throw failures[0].error;
    if (rounds[0]?.decision === 'window') windows++;
    rollout = (await repos.rollouts.findById(rollout.id))!;
    [share, windowStart] = [population.candidateShare(salt, rollout.weight), minuteOf(rollout.windowStartedAt)];
    if (rollout.state !== RolloutState.Running && rollout.state !== RolloutState.Paused) break;
    if (scenario.maxWindows !== undefined && windows >= scenario.maxWindows) break;
  }
  return { rollout, windows: await repos.rollouts.windows(rollout.id) };
}

/** Runs a scenario `count` times from one seed; the rollouts take turns among five salts (hashing the users per salt is the slow part). */
async function runs(count: number, seed: number, scenario: Scenario) {
  const random = seededRandom(seed);
  const salts = Array.from({ length: 5 }, () => floor(random() * 2 ** 32).toString(16).padStart(8, '0').repeat(2));
  const results = [];
  for (let run = 0; run < count; run++) results.push(await simulate(scenario, random, salts[run % salts.length]!));
  return results;
}

describe('the rollout guard, simulated', () => {
  it('rolls back a candidate with 6% error sessions against 1% within 4 windows, in at least 95 of 100 runs', async () => {
    // A busy site: 20,000 sessions an hour, so the 1% stage fills a window in about an hour.
    const results = await runs(100, 6, {
      sessionsPerDay: 20_000 * 24,
      errorRate: { candidate: 0.06, release: 0.01 },
      stages: DEFAULT_ROLLOUT_STAGES,
      minutes: 24 * 60,
      maxWindows: 4,
      evaluate: 'every-minute',
    });
    const rolledBack = results.filter((r) => r.rollout.state === RolloutState.RolledBack && r.windows.length <= 4);
    expect(rolledBack.length).toBeGreaterThanOrEqual(95);
    expect(rolledBack[0]!.rollout.reason).toMatch(/^Rolled back after 2 regressed windows: candidate \d+\/\d+ sessions with errors/);
  });

  it('rolls back an A/A pair at 1% on at most 1 of 300 simulated days', async () => {
    // A modest site: 20,000 sessions a day with the canary held at 5%, four to five windows a day.
    const results = await runs(300, 7, {
      sessionsPerDay: 20_000,
      errorRate: { candidate: 0.01, release: 0.01 },
      stages: [{ weight: 5_000, holdMinutes: 0 }],
      minutes: 24 * 60,
      evaluate: 'window-fills',
    });
    const windows = results.reduce((sum, r) => sum + r.windows.length, 0);
    expect(windows).toBeGreaterThan(300 * 4);
    expect(results.filter((r) => r.rollout.state === RolloutState.RolledBack).length).toBeLessThanOrEqual(1);
  });

  it('never advances a stage on too few sessions, and advances through every stage on enough', async () => {
    const [starved] = await runs(1, 8, {
      sessionsPerDay: 1_000,
      errorRate: { candidate: 0.01, release: 0.01 },
      stages: DEFAULT_ROLLOUT_STAGES,
      minutes: 7 * 24 * 60,
      evaluate: 'every-minute',
    });
    expect(starved!.rollout).toMatchObject({ state: 'running', stageIndex: 0, revision: 1 });
    expect(starved!.windows).toEqual([]);

    const [busy] = await runs(1, 9, {
      sessionsPerDay: 20_000 * 24,
      errorRate: { candidate: 0.01, release: 0.01 },
      stages: DEFAULT_ROLLOUT_STAGES,
      minutes: 6 * 60,
      evaluate: 'every-minute',
    });
    expect(busy!.rollout).toMatchObject({ state: 'running', stageIndex: DEFAULT_ROLLOUT_STAGES.length - 1, weight: 100_000 });
  });
});
