import { browseComponents, createFlow, editFlowComponents, getFlow, listFlows, setFlowStatus } from '@cp/domain';
import { Router } from 'express';
import { html } from '@cp/web-forms';
import { csrfInput, layout, noticeBox, when } from '../pages/layout.js';
import { field, formBody, notice, page, sendPage, type RouteContext } from './context.js';

/** Flows (legacy `/flow`): create, order components, publish. */
export function flowRoutes(ctx: RouteContext): Router {
  const router = Router();

  router.get('/orgs/:orgId/flows', page(ctx, async (req, res, visitor) => {
    const organizationId = String(req.params.orgId);
    const flows = await listFlows({ actor: visitor.actor, organizationId }, ctx.domain);
    sendPage(res, 200, layout({
      title: 'Flows',
      chrome: visitor.chrome(organizationId),
      body: html`<h1>Flows</h1>
<p>A flow is an ordered list of components served by the deprecated <code>/flow</code> endpoint; new hosts use <code>/consume</code> per component.</p>
${flows.length === 0 ? html`<p>No flow yet.</p>` : html`<table><thead><tr><th scope="col">Flow</th><th scope="col">Status</th><th scope="col">Components</th><th scope="col">Updated</th></tr></thead>
<tbody>${flows.map((f) => html`<tr><th scope="row"><a href="/flows/${f.id}">${f.name}</a></th><td>${f.status}</td><td>${f.componentIds.length}</td><td>${when(f.updatedAt)}</td></tr>`)}</tbody></table>`}
<h2>Create a flow</h2>
<form method="post" action="/orgs/${organizationId}/flows" class="inline">${csrfInput(visitor.chrome(null).csrf)}<label for="flow-name">Name</label><input type="text" id="flow-name" name="name" required><button type="submit">Create</button></form>`,
    }));
  }));

  router.post('/orgs/:orgId/flows', formBody, page(ctx, async (req, res, visitor) => {
    const flow = await createFlow({ actor: visitor.actor, organizationId: String(req.params.orgId), name: field(req, 'name') }, ctx.domain);
    res.redirect(303, `/flows/${flow.id}?notice=flow-saved`);
  }));

  router.get('/flows/:flowId', page(ctx, async (req, res, visitor) => {
    const flow = await getFlow({ actor: visitor.actor, flowId: String(req.params.flowId) }, ctx.domain);
    const { components } = await browseComponents({ actor: visitor.actor, organizationId: flow.organizationId, pageSize: 200 }, ctx.domain);
    const names = new Map(components.map((c) => [c.id, c.name]));
    for (const id of flow.componentIds) if (!names.has(id)) names.set(id, (await ctx.domain.repos.components.findById(id))?.name ?? id);
    const csrf = visitor.chrome(null).csrf;
    const action = (op: string, componentId: string, label: string, aria: string, kind = 'secondary') =>
      html`<form method="post" action="/flows/${flow.id}/components" class="inline">${csrfInput(csrf)}<input type="hidden" name="op" value="${op}"><input type="hidden" name="component" value="${componentId}"><button type="submit" class="${kind}" aria-label="${aria}">${label}</button></form>`;
    const addable = components.filter((c) => !flow.componentIds.includes(c.id));
    sendPage(res, 200, layout({
      title: `Flow ${flow.name}`,
      chrome: visitor.chrome(flow.organizationId),
      body: html`<h1>Flow ${flow.name}</h1>
${noticeBox(notice(req))}
<p>Status: <strong>${flow.status}</strong>. ${flow.status === 'published' ? html`Served at <code>${ctx.config.deliveryUrl}/flow?id=${flow.id}&amp;resolve=components</code>.` : 'Drafts are not served.'}</p>
<form method="post" action="/flows/${flow.id}/status">${csrfInput(csrf)}<input type="hidden" name="status" value="${flow.status === 'published' ? 'draft' : 'published'}"><button type="submit">${flow.status === 'published' ? 'Unpublish' : 'Publish'}</button></form>
<h2>Components, in order</h2>
${flow.componentIds.length === 0 ? html`<p>No component in this flow yet.</p>` : html`<ol>${flow.componentIds.map((id, index) => {
  const name = names.get(id) ?? id;
  return html`<li><a href="/component/${id}">${name}</a> ${index > 0 ? action('up', id, 'Move up', `Move ${name} up`) : ''} ${index < flow.componentIds.length - 1 ? action('down', id, 'Move down', `Move ${name} down`) : ''} ${action('remove', id, 'Remove', `Remove ${name} from the flow`, 'danger')}</li>`;
})}</ol>`}
${addable.length === 0 ? '' : html`<form method="post" action="/flows/${flow.id}/components" class="inline">${csrfInput(csrf)}<input type="hidden" name="op" value="add"><label for="add-component">Add a component</label><select id="add-component" name="component">${addable.map((c) => html`<option value="${c.id}">${c.name}</option>`)}</select><button type="submit">Add</button></form>`}`,
    }));
  }));

  router.post('/flows/:flowId/components', formBody, page(ctx, async (req, res, visitor) => {
    const flow = await editFlowComponents({ actor: visitor.actor, flowId: String(req.params.flowId), edit: field(req, 'op'), componentId: field(req, 'component') }, ctx.domain);
    res.redirect(303, `/flows/${flow.id}?notice=flow-saved`);
  }));

  router.post('/flows/:flowId/status', formBody, page(ctx, async (req, res, visitor) => {
    const status = field(req, 'status') === 'published' ? 'published' : 'draft';
    const flow = await setFlowStatus({ actor: visitor.actor, flowId: String(req.params.flowId), status }, ctx.domain);
    res.redirect(303, `/flows/${flow.id}?notice=${status === 'published' ? 'flow-published' : 'flow-unpublished'}`);
  }));

  return router;
}
