import {
  getRollout as getRolloutUseCase,
  type ArmSessions,
  type GuardWindow,
  type RolloutView,
} from '@cp/domain';
import { z } from 'zod';
import { Scope } from '../auth/scopes.js';
import { actorOf, defineTool, isoTime } from './define.js';
import { componentId, environmentName } from './params.js';
import { percentNumber } from './percent.js';
import {
  armSessionsShape,
  describeRollout,
  rolloutShape,
  toArmSessions,
  toRollout,
} from './rollout-shapes.js';

/** Windows a get_rollout answer lists (the latest): a long rollout closes many. */
const WINDOWS_SHOWN = 10;

const figuresShape = z.object({ candidate: armSessionsShape, release: armSessionsShape });

const armText = (arm: ArmSessions): string =>
  arm.sessions === 0
    ? '0 sessions'
    : `${arm.sessions} sessions (${arm.errorSessions}, ${((arm.errorSessions / arm.sessions) * 100).toFixed(2)}%, with errors)`;

const figuresText = (label: string, figures: RolloutView['stage']): string =>
  figures === null
    ? ''
    : `${label}: candidate ${armText(figures.candidate)}, release ${armText(figures.release)}.`;

/** The answer in words: state and stage, sessions per arm, the guard's verdicts and what comes next. */
function summarize(view: RolloutView, now: Date): string {
  const { rollout, windows } = view;
  const lines = [
    describeRollout(rollout),
    figuresText('At this stage', view.stage),
    figuresText('In the open window', view.openWindow),
  ];
  const last = windows.at(-1);
  lines.push(
    last === undefined
      ? `The guard has closed no window yet (one closes at ${rollout.guard.windowSessions} candidate sessions).`
      : `The guard closed ${windows.length} window${windows.length === 1 ? '' : 's'}; the last was ${last.verdict} (error rate ${(last.rise * 100).toFixed(2)} points above the release, z ${last.z.toFixed(2)}).`,
  );
  if (rollout.state === 'running') {
    const stage = rollout.stages[rollout.stageIndex]!;
    const holdUntil = new Date(rollout.stageStartedAt.getTime() + stage.holdMinutes * 60_000);
    lines.push(
      rollout.stageIndex === rollout.stages.length - 1
        ? 'It is at its last stage: promote_rollout releases the candidate, stop_rollout ends it.'
        : `The guard advances it ${holdUntil > now ? `after ${isoTime(holdUntil)}` : 'now that the hold time has passed'}, once each arm has ${rollout.guard.minSessionsPerArm} sessions at this stage and the last window was not regressed.`,
    );
  } else if (rollout.state === 'paused')
    lines.push(
      'Paused: nothing advances; change_rollout "resume" resumes it, stop_rollout ends it.',
    );
  return lines.filter((line) => line !== '').join('\n');
}

const toWindow = (window: GuardWindow) => ({
  index: window.index,
  from: isoTime(window.from),
  to: isoTime(window.to),
  percent: percentNumber(window.weight),
  candidate: toArmSessions(window.candidate),
  release: toArmSessions(window.release),
  risePoints: window.rise * 100,
  z: window.z,
  sampleRatioP: window.sampleRatioP,
  verdict: window.verdict,
});

export const getRollout = defineTool({
  name: 'get_rollout',
  title: 'Get rollout',
  description:
    'Reads the rollout of a component in an environment (the live one, else the latest): its state (running, paused, promoted, stopped, rolled_back), ' +
    'stage, share in percent, revision (the expectedRevision of change_rollout and promote_rollout), sessions and error rates of the candidate and ' +
    "the release at this stage and in the judging window still open, the guard's closed windows with their verdicts (the latest 10), and why it paused or ended. " +
    '"message" says it all in words, with what happens next.',
  scope: Scope.Read,
  annotations: {
    readOnlyHint: true,
    destructiveHint: false,
    idempotentHint: true,
    openWorldHint: false,
  },
  input: z.strictObject({ componentId, environment: environmentName }),
  output: z.object({
    message: z.string().describe('The answer in words.'),
    componentId: z.string(),
    environment: z.string(),
    rollout: rolloutShape,
    stageFigures: figuresShape
      .nullable()
      .describe('Sessions per arm since the stage began; null once the rollout ended.'),
    openWindow: figuresShape
      .nullable()
      .describe('Sessions per arm in the judging window still open; null once the rollout ended.'),
    windows: z
      .array(
        z.object({
          index: z.int(),
          from: z.string(),
          to: z.string(),
          percent: z.number().describe("The candidate's share during the window."),
          candidate: armSessionsShape,
          release: armSessionsShape,
          risePoints: z
            .number()
            .describe("Candidate's session error rate minus the release's, in percentage points."),
          z: z.number(),
          sampleRatioP: z.number(),
          verdict: z.enum(['healthy', 'regressed', 'sample_ratio_mismatch']),
        }),
      )
      .describe('The latest closed windows, oldest first.'),
    windowsTotal: z.int(),
  }),
  async run(args, ctx) {
    const view = await getRolloutUseCase(
      { actor: actorOf(ctx), componentId: args.componentId, environment: args.environment },
      {
        repos: ctx.domain.repos,
        ids: ctx.domain.ids,
        clock: ctx.domain.clock,
        figures: ctx.figures,
      },
    );
    const figures = (f: RolloutView['stage']) =>
      f === null
        ? null
        : { candidate: toArmSessions(f.candidate), release: toArmSessions(f.release) };
    return {
      message: summarize(view, ctx.domain.clock.now()),
      componentId: view.rollout.componentId,
      environment: view.rollout.environmentName,
      rollout: toRollout(view.rollout),
      stageFigures: figures(view.stage),
      openWindow: figures(view.openWindow),
      windows: view.windows.slice(-WINDOWS_SHOWN).map(toWindow),
      windowsTotal: view.windows.length,
    };
  },
});
