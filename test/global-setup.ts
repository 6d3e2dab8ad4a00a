import { execFileSync } from 'node:child_process';

/**
 * Integration tests run the built CLI and the built example server as real processes, so the build
 * must be current. Building here keeps `npm test` honest on a fresh clone.
 */
export default function setup(): void {
  execFileSync('npm', ['run', '--silent', 'build'], { stdio: 'inherit' });
}
