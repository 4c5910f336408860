// Container health probe: GET http://127.0.0.1:$HEALTHCHECK_PORT$HEALTHCHECK_PATH, healthy on 2xx.
// Slim images have no curl or wget; Node's fetch does the job. Each image sets
// HEALTHCHECK_PORT to its service's default port; set it again if you change the port.
const port = process.env.HEALTHCHECK_PORT ?? '3000';
const path = process.env.HEALTHCHECK_PATH ?? '/';
try {
  const response = await fetch(`http://127.0.0.1:${port}${path}`, {
    signal: AbortSignal.timeout(4000),
  });
  process.exit(response.ok ? 0 : 1);
} catch (error) {
  console.error(
    `healthcheck: GET 127.0.0.1:${port}${path} failed: ${error.cause?.code ?? error.message}`,
  );
  process.exit(1);
}
