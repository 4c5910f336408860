import type { Express } from 'express';

/** What the router package (Express 5) keeps per `app.get(...)` / `app.use(router)`. */
interface Layer {
  readonly rawPath?: unknown;
  readonly route?: { readonly path: unknown; readonly methods: Readonly<Record<string, boolean>> };
  readonly handle?: { readonly stack?: readonly Layer[] };
}

/**
 * Every route of the app as "METHOD /pattern" (e.g. "POST /component/:id/tags"), read from the
 * router's stack, nested routers included: a test can then check it covers each one, and a route
 * added later fails it until someone decides how to test it.
 */
export function routePatterns(app: Express): string[] {
  const found = new Set<string>();
  const walk = (stack: readonly Layer[], prefix: string) => {
    for (const layer of stack) {
      if (layer.route !== undefined) {
        const paths = Array.isArray(layer.route.path) ? layer.route.path : [layer.route.path];
        for (const path of paths) {
          if (typeof path !== 'string') throw new Error(`a route path that is not a string: ${String(path)}`);
          for (const method of Object.keys(layer.route.methods).filter((m) => m !== '_all')) found.add(`${method.toUpperCase()} ${prefix}${path}`);
        }
      } else if (layer.handle?.stack !== undefined) {
        if (typeof layer.rawPath !== 'string') throw new Error('a router mounted on a path that is not a string');
        walk(layer.handle.stack, layer.rawPath === '/' ? prefix : `${prefix}${layer.rawPath}`);
      }
    }
  };
  walk((app as unknown as { router: { stack: readonly Layer[] } }).router.stack, '');
  if (found.size === 0) throw new Error('no routes found: has the router changed how it stores them?');
  return [...found].sort();
}
