import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A PATH with a stand-in for passwordless sudo first (this machine runs the tests as root, where
 * sudo adds nothing): it drops sudo's own options and runs the rest, so the `sudo-unshare` route's
 * command line runs as it would on a runner with sudo.
 */
export function sudoStandIn(): string {
  const dir = mkdtempSync(join(tmpdir(), 'mcp-gate-sudo-'));
  const sudo = join(dir, 'sudo');
  writeFileSync(sudo, '#!/bin/sh\nwhile [ "$1" = -n ] || [ "$1" = --preserve-env ]; do shift; done\nexec "$@"\n');
  chmodSync(sudo, 0o755);
  return `${dir}:${process.env.PATH ?? ''}`;
}
