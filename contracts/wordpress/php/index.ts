// PHP runtime behaviour that WordPress's REST wire format inherits without saying so, one idea per file: PHP arrays
// (arrays.ts), urldecode/urlencode (urlcode.ts), $_GET/$_POST/parse_str (parse-str.ts), numbers and is_numeric
// (scalars.ts), string helpers (strings.ts), json_encode (json-encode.ts), json_decode (json-decode.ts) and
// WordPress's query-string rebuilding (query.ts). Every rule was checked against PHP 8.2 (the runtime of the reference
// WordPress 6.1.9), see php.test.ts and json.test.ts.
export * from './arrays.ts';
export * from './string-bytes.ts';
export * from './urlcode.ts';
export * from './parse-str.ts';
export * from './scalars.ts';
export * from './strings.ts';
export * from './json-encode.ts';
export * from './json-decode.ts';
export * from './query.ts';
