import { readFileSync } from 'node:fs';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

export interface SizeRow {
  readonly file: string;
  readonly minified: number;
  readonly gzip: number;
  readonly brotli: number;
}

/** What a page downloads: the built files as served (brotli at the quality the delivery API uses for them). */
export function measureSize(path: string, file: string): SizeRow {
  const code = readFileSync(path);
  return {
    file,
    minified: code.length,
    gzip: gzipSync(code, { level: 9 }).length,
    brotli: brotliCompressSync(code, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length,
  };
}
