import { basename } from 'node:path';
import type { CommandContext, CommandResult } from '../cli/context.js';
import { CliError, ExitCode, usageError } from '../cli/errors.js';
import { connectTools, type ToolClient } from '../mcp/tool-client.js';
import { checkComponentFile } from '../push/check-file.js';
import { readProjectConfig } from '../push/project-config.js';
import { putFile } from '../push/put-file.js';
import { resolveComponentFile } from '../push/resolve-file.js';
import { releaseOutcome, type PublishAnswer } from './release-outcome.js';

interface UploadAnswer {
  readonly uploadId: string;
  readonly uploadUrl: string;
  readonly uploadHeaders: Record<string, string>;
}

interface ConfirmAnswer {
  readonly componentId: string;
  readonly componentName: string;
  readonly variantId: string;
  readonly sequence: number;
  readonly isNewComponent: boolean;
  readonly orgId: string;
  readonly dashboardUrl: string;
}

const option = (ctx: CommandContext, name: string): string | undefined => {
  const value = ctx.args.options[name];
  return typeof value === 'string' ? value : undefined;
};

/** `cpc push <file|dir>`: upload_component, the PUT, confirm_upload, and publish_component with --publish. */
export async function push(ctx: CommandContext): Promise<CommandResult> {
  const publish = ctx.args.options.publish === true;
  const environment = option(ctx, 'env');
  const requireRelease = ctx.args.options['require-release'] === true;
  if (publish && environment === undefined) throw usageError('--publish needs --env <environment>, for example --publish --env staging.');
  if (!publish && environment !== undefined) throw usageError('--env only applies with --publish: add --publish to release the upload there.');
  if (requireRelease && !publish) throw usageError('--require-release only applies with --publish.');
  const file = await resolveComponentFile(ctx.args.positionals[0]!);
  const project = await readProjectConfig(file.projectDir);
  const componentId = option(ctx, 'component') ?? project.componentId;
  const name = option(ctx, 'name') ?? project.name;
  const organization = option(ctx, 'org') ?? project.organization;
  if (componentId === undefined && name === undefined) {
    throw usageError('Say which component: --component <id> to add a version, or --name <name> to create one (or set them in service.config.json).');
  }
  const checked = checkComponentFile(file.path, file.bytes);
  const target = { componentId: componentId ?? null, name: componentId === undefined ? name : undefined, organization: organization ?? null };
  if (ctx.args.options['dry-run'] === true) {
    return {
      data: { dryRun: true, file: file.path, size: checked.size, sha256: checked.sha256, ...target, publishTo: publish ? environment : null },
      text: `Dry run: ${file.path} (${checked.size} bytes) is a valid component file; nothing was uploaded.`,
    };
  }
  const tools = await connectTools(ctx);
  try {
    const uploaded = await upload(ctx, tools, file.path, file.bytes, { componentId, name, organization });
    const release = publish ? releaseOutcome(await tools.call<PublishAnswer>('publish_component', { componentId: uploaded.componentId, environment, variantId: uploaded.variantId })) : null;
    const data = { file: file.path, size: checked.size, sha256: checked.sha256, ...uploaded, release: release?.data ?? null };
    const lines = [`Uploaded ${file.path} as version ${uploaded.sequence} of ${uploaded.componentName} (${uploaded.componentId}).`];
    if (uploaded.isNewComponent) lines.push(`A new component: save "componentId": "${uploaded.componentId}" in service.config.json.`);
    if (release !== null) lines.push(release.text);
    lines.push(uploaded.dashboardUrl);
    if (release?.pending === true && requireRelease) {
      throw new CliError(
        'PENDING_APPROVAL',
        `${release.text} Version ${uploaded.sequence} of ${uploaded.componentName} (componentId ${uploaded.componentId}) was uploaded; nothing is released until the request is approved (--require-release).`,
        ExitCode.PendingApproval,
      );
    }
    return { data, text: lines.join('\n') };
  } finally {
    await tools.close();
  }
}

async function upload(
  ctx: CommandContext,
  tools: ToolClient,
  path: string,
  bytes: Buffer,
  target: { componentId: string | undefined; name: string | undefined; organization: string | undefined },
): Promise<ConfirmAnswer> {
  const started = await tools.call<UploadAnswer>('upload_component', {
    ...(target.componentId === undefined ? { name: target.name } : { componentId: target.componentId }),
    ...(target.organization === undefined ? {} : { organization: target.organization }),
  });
  let reported = -1;
  await putFile(started.uploadUrl, bytes, started.uploadHeaders, (sent, total) => {
    // One report per tenth, so a large file gives ten lines, not thousands.
    const tenth = Math.floor((sent / total) * 10);
    if (tenth === reported) return;
    reported = tenth;
    ctx.out.event('upload.progress', { sent, total }, `Uploading ${basename(path)}: ${tenth * 10}% (${sent} of ${total} bytes)`);
  });
  const confirmed = await tools.call<ConfirmAnswer>('confirm_upload', { uploadId: started.uploadId });
  ctx.out.event('upload.confirmed', { componentId: confirmed.componentId, variantId: confirmed.variantId, sequence: confirmed.sequence }, `Stored as version ${confirmed.sequence}.`);
  return {
    componentId: confirmed.componentId,
    componentName: confirmed.componentName,
    variantId: confirmed.variantId,
    sequence: confirmed.sequence,
    isNewComponent: confirmed.isNewComponent,
    orgId: confirmed.orgId,
    dashboardUrl: confirmed.dashboardUrl,
  };
}
