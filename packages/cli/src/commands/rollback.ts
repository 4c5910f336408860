import type { CommandContext, CommandResult } from '../cli/context.js';
import { CliError, ExitCode, usageError } from '../cli/errors.js';
import { connectTools } from '../mcp/tool-client.js';
import { releaseOutcome, type PublishAnswer } from './release-outcome.js';
import { requiredComponent } from './variants.js';

interface Choices {
  readonly current: { variantId: string; sequence: number } | null;
  readonly rollBack: { variantId: string; sequence: number } | null;
}

/**
 * `cpc rollback --component <id> --env <environment>`: what the dashboard's Roll back does: get_release_choices
 * names the version the current release replaced, and publish_component releases it.
 */
export async function rollback(ctx: CommandContext): Promise<CommandResult> {
  const componentId = requiredComponent(ctx);
  const environment = ctx.args.options.env;
  if (typeof environment !== 'string') throw usageError('--env <environment> is required. Usage: cpc rollback --component <id> --env <environment>');
  const tools = await connectTools(ctx);
  try {
    const choices = await tools.call<Choices>('get_release_choices', { componentId, environment });
    if (choices.rollBack === null) {
      const now = choices.current === null ? 'nothing is released there' : `version ${choices.current.sequence} is the only one to go back from`;
      throw new CliError('NOTHING_TO_ROLL_BACK', `There is nothing to roll back to in "${environment}": ${now}.`, ExitCode.Failure);
    }
    const outcome = releaseOutcome(await tools.call<PublishAnswer>('publish_component', { componentId, environment, variantId: choices.rollBack.variantId }));
    if (outcome.pending && ctx.args.options['require-release'] === true) {
      throw new CliError('PENDING_APPROVAL', `${outcome.text} (--require-release: nothing is released yet).`, ExitCode.PendingApproval);
    }
    return { data: { componentId, from: choices.current, release: outcome.data }, text: outcome.text };
  } finally {
    await tools.close();
  }
}
