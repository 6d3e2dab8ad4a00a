/**
 * Strings that ajv-formats (full mode, as the MCP SDK runs it) accepts for each format, two or three
 * shapes each: a witness for a swapped or added format is usually one format's sample that another
 * refuses (a `uri` that is no `email`, a `date` that is no `date-time`).
 */
export const FORMAT_SAMPLES: Record<string, readonly string[]> = {
  date: ['2024-02-29', '1999-12-31'],
  time: ['12:34:56Z', '23:59:59.5+02:00'],
  'date-time': ['2024-02-29T12:34:56Z', '1999-12-31T23:59:59.123+01:00'],
  'iso-time': ['12:34:56', '12:34:56Z'],
  'iso-date-time': ['2024-02-29T12:34:56', '2024-02-29 12:34:56Z'],
  duration: ['P1D', 'PT1H30M', 'P2W'],
  uri: ['https://example.com/a?b=1', 'urn:isbn:0451450523', 'mailto:someone@example.com'],
  'uri-reference': ['/a/b?c=1', '../x', '#frag', 'https://example.com/'],
  url: ['https://example.com/', 'http://example.org/a'],
  'uri-template': ['https://example.com/{id}', '/a/{b}'],
  email: ['someone@example.com', 'a.b+c@example.org'],
  hostname: ['example.com', 'a-b.example', 'localhost'],
  ipv4: ['192.0.2.1', '0.0.0.0'],
  ipv6: ['2001:db8::1', '::1'],
  uuid: ['123e4567-e89b-12d3-a456-426614174000', '00000000-0000-0000-0000-000000000000'],
  'json-pointer': ['/a/0', ''],
  'json-pointer-uri-fragment': ['#/a/0', '#'],
  'relative-json-pointer': ['0/a', '1#'],
  regex: ['^a+$', '[0-9]'],
  byte: ['aGVsbG8=', ''],
};

/** Strings that fail most formats, so a format added or swapped meets a plain value too. */
export const PLAIN_STRINGS: readonly string[] = ['x', 'hello world', ''];

/**
 * The formats ajv-formats asserts, as the MCP SDK and the gate's judge run it (witness/judge.ts); ajv
 * ignores any other name, so a format outside these validates nothing (`format: "x-ticket"`).
 */
export const ASSERTED_FORMATS = new Set([
  'date',
  'time',
  'date-time',
  'iso-time',
  'iso-date-time',
  'duration',
  'uri',
  'uri-reference',
  'uri-template',
  'url',
  'email',
  'hostname',
  'ipv4',
  'ipv6',
  'regex',
  'uuid',
  'json-pointer',
  'json-pointer-uri-fragment',
  'relative-json-pointer',
  'byte',
  'int32',
  'int64',
  'float',
  'double',
  'password',
  'binary',
]);
