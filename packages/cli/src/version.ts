declare const CPC_VERSION: string | undefined;

/** The package's version, put in by scripts/build.mjs; "dev" when run from the sources. */
export const readVersion = (): string => (typeof CPC_VERSION === 'string' ? CPC_VERSION : 'dev');
