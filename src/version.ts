import { readFileSync } from 'node:fs';

const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { name: string; version: string };

export const GATE_NAME = manifest.name;
export const GATE_VERSION = manifest.version;
