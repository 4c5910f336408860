// Dockerfile: `dockerfile-utils` (the linter behind VS Code's Docker support: syntax, flags,
// durations, ports, signals, stage names, every rule raised to an error), plus this
// repository's rules: base images pinned to a version, non-root USER, HEALTHCHECK, EXPOSE,
// STOPSIGNAL and an exec-form CMD in every service image.
import { validate as lintDockerfile, ValidationSeverity } from 'dockerfile-utils';
import { jobs } from './compose-rules.mjs';

export function checkDockerfile({ compose, dockerfile, report }) {
  const services = compose.services ?? {};
  const all = ValidationSeverity.ERROR;
  const diagnostics = lintDockerfile(dockerfile, {
    deprecatedMaintainer: all,
    directiveCasing: all,
    emptyContinuationLine: all,
    instructionCasing: all,
    instructionCmdMultiple: all,
    instructionEntrypointMultiple: all,
    instructionHealthcheckMultiple: all,
    instructionJSONInSingleQuotes: all,
    instructionWorkdirRelative: all,
  });
  for (const diagnostic of diagnostics)
    report.fail(`Dockerfile:${diagnostic.range.start.line + 1}`, diagnostic.message);

  // Our rules, stage by stage (a stage inherits what its base stage set).
  const lines = dockerfile
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((line) => line.trim());
  const args = new Map();
  const stages = new Map();
  let current = null;
  for (const line of lines) {
    if (line === '' || line.startsWith('#')) continue;
    const [instruction, ...rest] = line.split(/\s+/);
    const argument = rest.join(' ');
    const keyword = instruction.toUpperCase();
    if (keyword === 'ARG' && current === null) {
      const [name, value] = argument.split('=');
      args.set(name, value);
    } else if (keyword === 'FROM') {
      const from = /^(?:--\S+\s+)*(\S+)(?:\s+AS\s+(\S+))?$/i.exec(argument);
      const image = from[1].replace(/\$\{?([A-Z_]+)\}?/g, (_, name) => args.get(name) ?? '');
      const base = stages.get(image);
      current = {
        name: from[2],
        image,
        user: base?.user,
        stopsignal: base?.stopsignal,
        healthcheck: base?.healthcheck,
        expose: false,
        cmd: base?.cmd,
      };
      if (from[2]) stages.set(from[2], current);
      if (!base) {
        if (!/^[a-z0-9./-]+:[0-9][\w.-]*$/.test(image) || /:latest$/.test(image))
          report.fail('Dockerfile', `base image ${image} must be pinned to a version tag`);
      }
    } else if (current) {
      if (keyword === 'USER') current.user = argument;
      if (keyword === 'STOPSIGNAL') current.stopsignal = argument;
      if (keyword === 'HEALTHCHECK') current.healthcheck = argument;
      if (keyword === 'EXPOSE') current.expose = true;
      if (keyword === 'CMD') current.cmd = argument;
    }
  }
  const targets = Object.values(services)
    .map((service) => service.build?.target)
    .filter(Boolean);
  for (const target of targets) {
    const stage = stages.get(target);
    if (!stage) {
      report.fail('Dockerfile', `compose.yml builds target ${target}, which has no stage`);
      continue;
    }
    const where = `Dockerfile target ${target}`;
    if (!stage.user || /^(root|0)(:|$)/.test(stage.user))
      report.fail(where, 'must run as a non-root USER');
    if (stage.stopsignal !== 'SIGTERM') report.fail(where, 'must set STOPSIGNAL SIGTERM');
    if (!stage.cmd?.startsWith('['))
      report.fail(where, 'CMD must be in exec form (JSON array), so node gets the signals');
    const isJob = jobs.has(
      Object.keys(services).find((name) => services[name].build?.target === target),
    );
    if (!isJob) {
      if (!stage.healthcheck || /^NONE$/i.test(stage.healthcheck))
        report.fail(where, 'needs a HEALTHCHECK');
      if (!stage.expose) report.fail(where, 'needs EXPOSE');
    }
  }
  report.pass(
    `Dockerfile: dockerfile-utils lint clean; ${targets.length} targets pinned, non-root, STOPSIGNAL, exec-form CMD, HEALTHCHECK and EXPOSE on services`,
  );
}
