/**
 * The bytes of a JSON body as the delivery API sends it (identity encoding) and the
 * static export writes it: the one place that decides them, so an exported object and
 * the `/consume` answer it mirrors cannot drift apart.
 */
export const jsonBody = (payload: unknown): Buffer => Buffer.from(JSON.stringify(payload));

/** Content-Type of every JSON body, served or exported. */
export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';
