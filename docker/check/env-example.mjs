// docker/.env.example, parsed like compose's env file (enough of it for our own file):
// the values it sets, and every variable it documents (set, or commented out as `# NAME=`).
export function parseEnvExample(text) {
  const values = new Map();
  const documented = new Set();
  for (const line of text.split('\n')) {
    const set = /^([A-Z][A-Z0-9_]*)=(.*)$/.exec(line);
    if (set) {
      let value = set[2];
      if (/^'.*'$/.test(value) || /^".*"$/.test(value)) value = value.slice(1, -1);
      values.set(set[1], value);
      documented.add(set[1]);
      continue;
    }
    const commented = /^#\s*([A-Z][A-Z0-9_]*)=/.exec(line);
    if (commented) documented.add(commented[1]);
  }
  return { values, documented };
}
