// C0/C1 control characters (tab and newline included): never part of a name or a tag.
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

export const hasControlCharacters = (value: string): boolean => CONTROL.test(value);
