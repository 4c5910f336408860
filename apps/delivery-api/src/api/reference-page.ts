/*
 * The OpenAPI document rendered as one static HTML page, server-side: no script,
 * no CDN, so it works offline and under a strict Content-Security-Policy.
 */

type Json = Record<string, unknown>;

const esc = (text: string): string =>
  text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;');

/** The subset of Markdown the descriptions use: paragraphs and `code`. */
const prose = (text: unknown): string =>
  typeof text !== 'string'
    ? ''
    : text
        .split(/\n{2,}/)
        .map((para) => `<p>${esc(para).replace(/`([^`]+)`/g, '<code>$1</code>')}</p>`)
        .join('');

const refName = (ref: string): string => ref.split('/').pop() ?? ref;

const str = (value: unknown, fallback = ''): string => (typeof value === 'string' ? value : fallback);

function typeOf(schema: Json | undefined): string {
  if (!schema) return '';
  if (typeof schema.$ref === 'string') return `<a href="#schema-${esc(refName(schema.$ref))}">${esc(refName(schema.$ref))}</a>`;
  if (Array.isArray(schema.enum)) return schema.enum.map((value) => `<code>${esc(JSON.stringify(value))}</code>`).join(' | ');
  if ('const' in schema) return `<code>${esc(JSON.stringify(schema.const))}</code>`;
  for (const key of ['oneOf', 'anyOf'] as const) {
    const options = schema[key];
    if (Array.isArray(options)) return options.map((option) => typeOf(option as Json)).join(' | ');
  }
  if (schema.type === 'array') return `array of ${typeOf(schema.items as Json)}`;
  return esc(Array.isArray(schema.type) ? schema.type.join(' | ') : str(schema.type, 'any'));
}

function propertiesTable(schema: Json): string {
  const properties = (schema.properties ?? {}) as Record<string, Json>;
  const required = new Set((schema.required ?? []) as string[]);
  const rows = Object.entries(properties).map(
    ([name, prop]) =>
      `<tr><td><code>${esc(name)}</code>${required.has(name) ? '' : ' <small>optional</small>'}</td><td>${typeOf(prop)}</td><td>${prose(prop.description)}</td></tr>`,
  );
  return rows.length === 0 ? '' : `<table><tr><th>Field</th><th>Type</th><th>Description</th></tr>${rows.join('')}</table>`;
}

function schemaSection(name: string, schema: Json): string {
  const variants = (schema.oneOf ?? schema.anyOf) as Json[] | undefined;
  const body = variants
    ? variants.map((variant, index) => `<h4>Form ${index + 1}</h4>${propertiesTable(variant)}`).join('')
    : propertiesTable(schema);
  return `<section id="schema-${esc(name)}"><h3>${esc(name)}</h3>${prose(schema.description)}${body}</section>`;
}

function operationSection(path: string, method: string, op: Json): string {
  const params = ((op.parameters ?? []) as Json[]).map(
    (p) =>
      `<tr><td><code>${esc(String(p.name))}</code>${p.required ? '' : ' <small>optional</small>'}</td><td>${typeOf(p.schema as Json)}</td><td>${prose(p.description ?? (p.schema as Json | undefined)?.description)}</td></tr>`,
  );
  const responses = Object.entries((op.responses ?? {}) as Record<string, Json>).map(([status, response]) => {
    const content = (response.content ?? {}) as Record<string, { schema?: Json }>;
    const bodies = Object.entries(content).map(([type, media]) => `<code>${esc(type)}</code> ${typeOf(media.schema)}`);
    const headers = Object.keys((response.headers ?? {}) as Json).map((h) => `<code>${esc(h)}</code>`);
    return `<tr><td>${esc(status)}</td><td>${prose(response.description)}</td><td>${bodies.join('<br>')}</td><td>${headers.join(' ')}</td></tr>`;
  });
  return `<section id="op-${esc(str(op.operationId, path))}">
<h2><span class="method">${esc(method.toUpperCase())}</span> ${esc(path)}${op.deprecated ? ' <span class="deprecated">deprecated</span>' : ''}</h2>
<p><strong>${esc(str(op.summary))}</strong></p>${prose(op.description)}
${params.length ? `<h3>Query parameters</h3><table><tr><th>Name</th><th>Type</th><th>Description</th></tr>${params.join('')}</table>` : ''}
<h3>Responses</h3><table><tr><th>Status</th><th>Meaning</th><th>Body</th><th>Headers</th></tr>${responses.join('')}</table></section>`;
}

export function renderReferencePage(document: Json): string {
  const info = (document.info ?? {}) as Json;
  const paths = (document.paths ?? {}) as Record<string, Record<string, Json>>;
  const operations = Object.entries(paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, op]) => operationSection(path, method, op)),
  );
  const schemas = ((document.components as Json | undefined)?.schemas ?? {}) as Record<string, Json>;
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${esc(String(info.title))} reference</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>body{font:15px/1.5 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#1b1f24}
table{border-collapse:collapse;width:100%;margin:.5rem 0 1rem}td,th{border:1px solid #d0d7de;padding:.3rem .5rem;text-align:left;vertical-align:top}
th{background:#f6f8fa}code{background:#f6f8fa;padding:0 .2rem;border-radius:3px}td p{margin:0}
.method{background:#0969da;color:#fff;border-radius:4px;padding:0 .4rem;font-size:.9em}.deprecated{color:#9a6700;font-size:.7em}
section{border-top:1px solid #d0d7de;margin-top:1.5rem}</style></head><body>
<h1>${esc(String(info.title))} <small>${esc(String(info.version))}</small></h1>${prose(info.description)}
<p>Machine-readable: <a href="openapi.json">openapi.json</a> (OpenAPI ${esc(String(document.openapi))}).</p>
${operations.join('\n')}
<h2>Schemas</h2>${Object.entries(schemas).map(([name, schema]) => schemaSection(name, schema)).join('\n')}
</body></html>`;
}
