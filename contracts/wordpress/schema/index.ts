// WordPress's REST schema rules: the validator and sanitizer port (validate.ts), its type tests (value-types.ts),
// formats (formats.ts), every error it reports (messages.ts) and the conversion of a 2020-12 schema into the arg
// schema a site registers (convert.ts).
export * from './types.ts';
export * from './messages.ts';
export * from './value-types.ts';
export * from './formats.ts';
export * from './validate.ts';
export * from './checked.ts';
export * from './coerce.ts';
export * from './convert.ts';
