// compose.yml against the Compose Specification JSON schema (the copy the npm package `dclint`
// ships, validated with Ajv), as written and after interpolating it with the values of
// .env.example the way `docker compose --env-file` would (so a `${VAR:?}` that .env.example
// leaves out, or a value of the wrong type after substitution, fails).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import Ajv from 'ajv';
import { createInterpolator } from './interpolate.mjs';

const require = createRequire(import.meta.url);

/** Returns the variables compose.yml interpolates. */
export function checkComposeSchema({ compose, envValues, report }) {
  // The schema dclint ships (schemas/compose.schema.json, the Compose Specification's own
  // compose-spec.json, draft-07); dclint itself also runs in check.sh.
  const schemaPath = join(
    dirname(require.resolve('dclint/package.json')),
    'schemas',
    'compose.schema.json',
  );
  const schema = JSON.parse(readFileSync(schemaPath, 'utf8'));
  // Its "$schema" says https://json-schema.org/draft-07/schema, which Ajv registers as http://...;
  // the dialect is the one the default Ajv class implements.
  delete schema.$schema;
  const ajv = new Ajv({ allErrors: true, strict: false, validateFormats: false });
  const validateCompose = ajv.compile(schema);
  const schemaErrors = (document) =>
    (validateCompose(document) ? [] : validateCompose.errors).map(
      (error) =>
        `${error.instancePath || '/'} ${error.message}${error.params?.additionalProperty ? ` (${error.params.additionalProperty})` : ''}`,
    );
  for (const error of schemaErrors(compose))
    report.fail('compose.yml (as written) does not match the Compose schema', error);

  const { uses, interpolateTree } = createInterpolator(envValues, report.fail);
  for (const error of schemaErrors(interpolateTree(compose)))
    report.fail(
      'compose.yml (interpolated with .env.example) does not match the Compose schema',
      error,
    );
  report.pass(
    `compose.yml matches the Compose Specification schema (${schema.title ?? 'compose-spec'}), as written and interpolated`,
  );
  return uses;
}
