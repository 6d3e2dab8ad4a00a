import { readFileSync } from 'node:fs';
import { packageFile } from './package-root.js';

const manifest = JSON.parse(readFileSync(packageFile('package.json'), 'utf8')) as { name: string; version: string };

export const GATE_NAME = manifest.name;
export const GATE_VERSION = manifest.version;
