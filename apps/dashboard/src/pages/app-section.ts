import { APP_LIMITS, Permission, type AppTool, type ComponentApp, type EnvironmentReleases, type Role } from '@cp/domain';
import { csrfInput, errorBox, html, type SafeHtml } from '@cp/web-forms';
import type { AppForm } from '../routes/app-form.js';
import { actionForm } from './parts/action-form.js';
import { roleGate } from './parts/role-gate.js';

export interface AppSectionContent {
  readonly componentId: string;
  readonly app: ComponentApp | null;
  /** The visitor's tool for the app (appTools); null when its environment has nothing released. */
  readonly tool: AppTool | null;
  readonly role: Role;
  readonly environments: readonly EnvironmentReleases[];
  readonly csrf: string;
  /** What the form shows: the saved settings, or what was typed when a save was refused. */
  readonly form: AppForm;
  /** The domain's message for a refused save or stop, shown above the form. */
  readonly error: string | null;
  /** The tool server's guide, at its section on the conversation. */
  readonly guideUrl: string;
}

/** Whether the component is an app, and what the assistant sees. */
function state({ app, tool }: AppSectionContent): SafeHtml {
  if (app === null) return html`Not offered: the AI assistants of this organization's members do not list this component.`;
  if (tool === null) {
    return html`Offered as “${app.title}”, showing ${app.environmentName}, but nothing is released to ${app.environmentName} now: no assistant lists it until a variant is published there.`;
  }
  return html`Offered as “${app.title}”: members' assistants list the tool <code>${tool.name}</code>, which shows v${tool.live.release.version} (the release of ${app.environmentName}).`;
}

/**
 * "In AI assistants" on the component page (docs/mcp-apps.md, section 2): whether the component is
 * an app and which tool assistants list; the settings form, which only owners and admins may use
 * (others see it disabled, with the reason).
 */
export function appSection(c: AppSectionContent): SafeHtml {
  const gate = roleGate(c.role, Permission.ManageSetup, 'offer components as apps', 'app-role-note');
  const off = gate.allowed ? '' : html` disabled`;
  const action = `/component/${c.componentId}/app`;
  return html`<h2 id="ai-assistants">In AI assistants</h2>
<p data-testid="app-state">${state(c)}</p>
<p class="hint">The tool's name carries the version, so assistants fetch the new view after a release. A member who also belongs to another organization with a component of this name sees it prefixed with the organization's name.</p>
${errorBox(c.error, 'app-error')}
<form method="post" action="${action}" class="stack" aria-labelledby="ai-assistants">${csrfInput(c.csrf)}
<p><label for="app-environment">Environment</label> <select id="app-environment" name="environment" aria-describedby="app-environment-hint"${off}>
${c.environments.map(({ environment, current }) => html`<option value="${environment.name}"${environment.name === c.form.environment ? html` selected` : ''}>${environment.name}${current === null ? ' (nothing released)' : ''}</option>`)}
</select></p>
<p class="hint" id="app-environment-hint">The app shows what is released there, and follows each new release.</p>
<p><label for="app-title">Title</label> <input type="text" id="app-title" name="title" value="${c.form.title}" maxlength="${APP_LIMITS.titleChars}" size="40" required${off}></p>
<p><label for="app-description">Description for the model</label> <textarea id="app-description" name="description" rows="3" maxlength="${APP_LIMITS.descriptionChars}" aria-describedby="app-description-hint" required${off}>${c.form.description}</textarea></p>
<p class="hint" id="app-description-hint">When the assistant should show this component, and what its arguments mean.</p>
<p><label for="app-schema">Input schema (JSON, optional)</label> <textarea id="app-schema" name="inputSchema" rows="5" class="mono" aria-describedby="app-schema-hint"${off}>${c.form.inputSchema}</textarea></p>
<p class="hint" id="app-schema-hint">A JSON Schema with <code>"type": "object"</code> for the tool's arguments, e.g. <code>{"type":"object","properties":{"price":{"type":"string"}}}</code>. Empty: any object.</p>
<p><label for="app-actions">Actions that call tools (optional)</label> <textarea id="app-actions" name="actionTools" rows="3" class="mono" aria-describedby="app-actions-hint"${off}>${c.form.actionTools}</textarea></p>
<p class="hint" id="app-actions-hint">One <code>action = tool</code> per line, e.g. <code>buy = publish_component</code>: <code>cpSend('buy', payload)</code> then calls that tool with the payload, with the member's own access. Any other action is reported to the conversation.</p>
<p class="inline"><button type="submit"${gate.disabled}>${c.app === null ? 'Offer as an app' : 'Save'}</button></p>
${gate.note}
</form>
${c.app === null ? '' : actionForm({ action: `${action}/remove`, csrf: c.csrf, label: 'Stop offering', name: 'Stop offering in AI assistants', style: 'danger', disabled: gate.disabled })}
<p class="hint">One component works on web pages and in assistants alike: read your data in <code>cpReceive(data)</code> (in an assistant: the tool's arguments, then its result), send actions with <code>cpSend(action, payload)</code>, report your height with <code>cpSend('cp:size', { height })</code>, and follow <code>&lt;html data-theme="light|dark"&gt;</code>: <a href="${c.guideUrl}">the component development guide</a> says more.</p>`;
}
