import { closeSync, fsyncSync, linkSync, mkdirSync, openSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname } from 'node:path';

/**
 * The one way mcp-gate writes a file a person keeps (a report, a config, a dataset, a snapshot, a
 * page written with -o): whole or not at all, and a crash or a full disk never loses what was there.
 *
 * The text goes to a temp file in the target's own directory (created exclusively, so no other
 * writer shares it), is written in full and fsynced, then published by rename (replacing) or by
 * hard link (never replacing). The directory is fsynced afterwards where the platform allows, so
 * the new name survives a power cut. The temp file is removed on every path.
 */

/** A file the gate could not write, named with the reason; the caller's message, never a stack trace. */
export class WriteError extends Error {
  constructor(
    readonly path: string,
    /** Why, in words: "its directory is not writable (permission denied)". */
    readonly reason: string,
  ) {
    super(`cannot write ${path}: ${reason}`);
    this.name = 'WriteError';
  }
}

/** What is written: a text, or a writer that puts every byte at the file's position (a report, a piece at a time). */
export type Content = string | ((fd: number) => void);

export interface AtomicWriteOptions {
  /** Runs on the complete temp file before it is published; when it throws, the target is left as it was. */
  check?: (temp: string) => void;
  /** Ends the temp file's name, for a check that goes by extension (e.g. `.yaml`). Default: none. */
  tempExtension?: string;
}

/** Writes `text` to `target`, replacing what is there only once the new text is complete on disk. */
export function writeFileAtomic(target: string, text: Content, options: AtomicWriteOptions = {}): void {
  withTempFile(target, text, options, (temp) => {
    options.check?.(temp);
    publish(target, () => renameSync(temp, target));
    return true;
  });
}

/**
 * Writes `text` under the first name `nameOf()` offers that no file holds, and returns it: two
 * writers in the same second never overwrite each other. `nameOf` is asked again after each clash.
 */
export function writeNewFileAtomic(nameOf: () => string, text: Content): string {
  for (;;) {
    const target = nameOf();
    if (withTempFile(target, text, {}, (temp) => publishNew(temp, target))) return target;
  }
}

/** Makes a complete, fsynced temp file beside `target`, hands it to `use`, and removes it afterwards. */
function withTempFile(target: string, text: Content, options: AtomicWriteOptions, use: (temp: string) => boolean): boolean {
  const dir = dirname(target);
  attempt(target, () => makeDirectory(dir));
  const temp = `${dir}/.${basename(target)}.${process.pid}.${Math.random().toString(36).slice(2, 8)}.tmp${options.tempExtension ?? ''}`;
  try {
    attempt(target, () => writeSynced(temp, text));
    return use(temp);
  } finally {
    rmSync(temp, { force: true });
  }
}

/** The folder, created as needed; mkdir says EEXIST when a part of the path is a file. */
function makeDirectory(dir: string): void {
  try {
    mkdirSync(dir, { recursive: true });
  } catch (error) {
    throw codeOf(error) === 'EEXIST' ? Object.assign(new Error('not a directory'), { code: 'ENOTDIR' }) : error;
  }
}

function writeSynced(file: string, text: Content): void {
  const fd = openSync(file, 'wx');
  try {
    // Every byte, or an error (a single write may stop short on a full disk; writeFileSync loops).
    if (typeof text === 'string') writeFileSync(fd, text);
    else text(fd);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** Puts `temp` at `target` unless `target` exists; false when another writer took the name first. */
function publishNew(temp: string, target: string): boolean {
  try {
    linkSync(temp, target);
    syncDirectory(dirname(target));
    return true;
  } catch (error) {
    const code = codeOf(error);
    if (code === 'EEXIST') return false;
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EXDEV') throw failure(target, error);
  }
  // No hard links here: reserve the name with an exclusive create, then rename onto it.
  try {
    closeSync(openSync(target, 'wx'));
  } catch (error) {
    if (codeOf(error) === 'EEXIST') return false;
    throw failure(target, error);
  }
  publish(target, () => renameSync(temp, target));
  return true;
}

function publish(target: string, move: () => void): void {
  attempt(target, move);
  syncDirectory(dirname(target));
}

/** Makes a new name in `dir` durable. Some platforms cannot open or fsync a directory: best effort there. */
function syncDirectory(dir: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(dir, 'r');
    fsyncSync(fd);
  } catch {
    // EISDIR, EPERM or EINVAL on Windows and some file systems: the rename itself still happened.
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

function attempt(target: string, step: () => void): void {
  try {
    step();
  } catch (error) {
    throw failure(target, error);
  }
}

const REASONS: Record<string, string> = {
  EACCES: 'its directory is not writable (permission denied)',
  EPERM: 'the operation is not permitted there',
  EROFS: 'the file system is read-only',
  ENOSPC: 'the disk is full',
  EDQUOT: 'the disk quota is used up',
  ENOTDIR: 'a part of its path is a file, not a directory',
  EISDIR: 'it is a directory',
};

function failure(target: string, error: unknown): Error {
  if (error instanceof WriteError) return error;
  const code = codeOf(error);
  if (code === undefined) return error as Error;
  return new WriteError(target, REASONS[code] ?? `${(error as Error).message}`);
}

const codeOf = (error: unknown): string | undefined => (error as NodeJS.ErrnoException | null)?.code;
