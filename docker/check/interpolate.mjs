// Compose interpolation: $$, $VAR, ${VAR}, ${VAR:-d}, ${VAR-d}, ${VAR:?e}, ${VAR?e}, ${VAR:+r},
// nested. `uses` collects every variable named; `fail` gets what cannot be interpolated.
export function createInterpolator(values, fail) {
  const uses = new Set();
  function interpolate(text, where) {
    let out = '';
    for (let i = 0; i < text.length;) {
      if (text[i] !== '$') {
        out += text[i++];
        continue;
      }
      if (text[i + 1] === '$') {
        out += '$';
        i += 2;
        continue;
      }
      if (text[i + 1] === '{') {
        let depth = 1;
        let j = i + 2;
        for (; j < text.length && depth > 0; j++) {
          if (text[j] === '{') depth++;
          else if (text[j] === '}') depth--;
        }
        if (depth !== 0) {
          fail(where, `unclosed \${ in ${JSON.stringify(text)}`);
          return out + text.slice(i);
        }
        out += braced(text.slice(i + 2, j - 1), where);
        i = j;
        continue;
      }
      const bare = /^\$([A-Za-z_][A-Za-z0-9_]*)/.exec(text.slice(i));
      if (bare) {
        uses.add(bare[1]);
        out += values.get(bare[1]) ?? '';
        i += bare[0].length;
      } else out += text[i++];
    }
    return out;
  }
  function braced(body, where) {
    const match = /^([A-Za-z_][A-Za-z0-9_]*)(?:(:?[-?+])([\s\S]*))?$/.exec(body);
    if (!match) {
      fail(where, `cannot interpolate \${${body}}`);
      return '';
    }
    const [, name, op, arg = ''] = match;
    uses.add(name);
    const value = values.get(name);
    const unsetOrEmpty = value === undefined || value === '';
    const missing = op?.startsWith(':') ? unsetOrEmpty : value === undefined;
    if (op === undefined) return value ?? '';
    if (op.endsWith('-')) return missing ? interpolate(arg, where) : value;
    if (op.endsWith('+')) return missing ? '' : interpolate(arg, where);
    if (missing) fail(where, `required variable ${name} has no value in .env.example (${arg})`);
    return missing ? '' : value;
  }
  const tree = (node, path) => {
    if (typeof node === 'string') return interpolate(node, `compose.yml ${path}`);
    if (Array.isArray(node)) return node.map((item, index) => tree(item, `${path}[${index}]`));
    if (node && typeof node === 'object') {
      return Object.fromEntries(
        Object.entries(node).map(([key, value]) => [key, tree(value, `${path}.${key}`)]),
      );
    }
    return node;
  };
  return { uses, interpolateTree: (document) => tree(document, '') };
}
