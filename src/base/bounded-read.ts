import { closeSync, constants, fstatSync, lstatSync, openSync, readSync, statSync, type Stats } from 'node:fs';

/** Why a file was not read, as the end of a sentence that starts with its name. */
export class UnreadableFile extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = 'UnreadableFile';
  }
}

const what = (stat: Stats): string =>
  stat.isFIFO()
    ? 'a FIFO (named pipe)'
    : stat.isCharacterDevice()
      ? 'a character device'
      : stat.isBlockDevice()
        ? 'a block device'
        : stat.isSocket()
          ? 'a socket'
          : stat.isDirectory()
            ? 'a directory'
            : 'not a regular file';

const CHUNK = 1 << 20;

/**
 * The text of a regular file of at most `maxBytes`, read without trusting what its name is: a
 * file committed in a pull request may be a FIFO (opening it waits for a writer, forever), a link
 * to /dev/zero (endless bytes, and a process too busy reading to take a signal) or another device.
 * A link is followed only to a regular file. The file is opened with O_NONBLOCK, so that even a
 * FIFO put in its place after the check cannot block, and the descriptor itself is checked again
 * before a byte is read; reading stops one byte past the bound. Throws UnreadableFile (or the
 * error of the first lstat, such as ENOENT).
 */
export function readRegularFile(path: string, maxBytes: number): string {
  const named = lstatSync(path);
  const target = named.isSymbolicLink() ? statSync(path) : named;
  if (!target.isFile())
    throw new UnreadableFile(`is ${named.isSymbolicLink() ? `a symbolic link to ${what(target)}` : what(target)}, not a regular file`);
  const fd = openSync(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOCTTY ?? 0));
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) throw new UnreadableFile(`is ${what(stat)}, not a regular file`);
    const tooBig = () => new UnreadableFile(`is larger than ${maxBytes} bytes, the most read from such a file`);
    if (stat.size > maxBytes) throw tooBig();
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const chunk = Buffer.allocUnsafe(Math.min(CHUNK, maxBytes + 1 - total));
      const read = readSync(fd, chunk, 0, chunk.length, null);
      if (read === 0) break;
      chunks.push(chunk.subarray(0, read));
      total += read;
      if (total > maxBytes) throw tooBig();
    }
    return Buffer.concat(chunks, total).toString('utf8');
  } finally {
    closeSync(fd);
  }
}
