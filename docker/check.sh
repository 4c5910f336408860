#!/usr/bin/env bash
# Static checks of docker/: compose cannot be started here (the third-party images it names
# cannot be pulled); docker/smoke.sh builds and runs the images themselves (docker/README.md).
# Needs the root devDependencies (`pnpm install`): dclint, ajv, yaml, dockerfile-utils.
# What it checks: dclint's rules below, then docker/check.mjs (schema, topology, env docs,
# Dockerfile lint).
set -euo pipefail
cd "$(dirname "$0")/.."

# The helper scripts the images and operators run must at least parse.
for script in docker/healthcheck.mjs docker/prune-deploy.mjs docker/generate-secrets.mjs; do
  node --check "$script"
done
# generate-secrets prints one NAME=value line per secret, and a parseable JWK Set.
node docker/generate-secrets.mjs | node -e '
  const lines = require("fs").readFileSync(0, "utf8").trim().split("\n");
  const keys = lines.find((line) => line.startsWith("AUTH_SIGNING_KEYS="));
  const set = JSON.parse(keys.slice("AUTH_SIGNING_KEYS=".length).replace(/^\x27|\x27$/g, ""));
  if (!lines.every((line) => /^[A-Z0-9_]+=\S+$/.test(line)) || set.keys[0].crv !== "P-256" || !set.keys[0].d || !set.keys[0].kid) {
    console.error("docker/generate-secrets.mjs: unexpected output"); process.exit(1);
  }'

# dclint (Docker Compose linter): the Compose schema plus its best-practice rules, every
# warning an error. docker/dclint.json turns off five rules on purpose:
#   no-build-and-image        compose tags the images it builds with `image:` (to push them)
#   *-alphabetical-order, service-keys-order, top-level-properties-order
#                             style only: services are listed in start-up order instead
pnpm exec dclint docker/compose.yml --config docker/dclint.json --max-warnings 0 --color false | sed "/^$/d"
echo "ok  dclint: compose.yml passes its rules"

node --conditions=source --import tsx docker/check.mjs

# The placeholder check must refuse the example file as it is (a copied, unedited docker/.env).
if CP_ENV_FILE=docker/.env.example node --conditions=source --import tsx docker/check.mjs >/dev/null 2>&1; then
  echo "docker/check.mjs accepted an env file full of REPLACE-ME placeholders" >&2
  exit 1
fi
echo "ok  an env file still holding REPLACE-ME values is refused"
