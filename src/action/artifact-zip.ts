import { mkdtempSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { inflateRawSync } from 'node:zlib';
import { ARTIFACT_CAPS, ARTIFACT_FILES } from './artifact.js';

/**
 * An artifact as the API serves it, a zip, read as untrusted as the folder actions/download-artifact
 * leaves (artifact.ts): only the hand-off's names at its top, only stored or deflated entries, each
 * inflated no further than its cap, written to a fresh folder that readArtifact then reads. Used
 * where the comment workflow re-renders from the last gate run on a label event, which has no run
 * of its own to download from.
 */
const CAPS: Record<string, number> = {
  [ARTIFACT_FILES.report]: ARTIFACT_CAPS.reportBytes,
  [ARTIFACT_FILES.bundle]: ARTIFACT_CAPS.smallBytes,
  [ARTIFACT_FILES.undecided]: ARTIFACT_CAPS.smallBytes,
};

/** The folder the wanted entries were written to, or why the archive was refused. */
export function unzipHandOff(zip: Buffer, parent: string): { dir: string } | { problem: string } {
  const end = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (end < 0 || end + 22 > zip.length) return { problem: 'the artifact is not a zip archive' };
  const count = zip.readUInt16LE(end + 10);
  let at = zip.readUInt32LE(end + 16);
  const dir = mkdtempSync(join(parent, 'mcp-gate-artifact-'));
  for (let i = 0; i < count; i++) {
    if (at + 46 > zip.length || zip.readUInt32LE(at) !== 0x02014b50) return { problem: 'the artifact is not a zip archive' };
    const method = zip.readUInt16LE(at + 10);
    const packed = zip.readUInt32LE(at + 20);
    const nameLength = zip.readUInt16LE(at + 28);
    const local = zip.readUInt32LE(at + 42);
    const name = zip.toString('utf8', at + 46, at + 46 + nameLength);
    at += 46 + nameLength + zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32);
    const cap = CAPS[name];
    if (cap === undefined) continue; // only the hand-off's names, at the top
    if (local + 30 > zip.length || zip.readUInt32LE(local) !== 0x04034b50) return { problem: `${name}: not a zip entry` };
    const start = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    const data = zip.subarray(start, start + packed);
    if (data.length !== packed) return { problem: `${name}: the archive is cut short` };
    let text: Buffer;
    if (method === 0) text = data;
    else if (method === 8) {
      try {
        text = inflateRawSync(data, { maxOutputLength: cap });
      } catch {
        return { problem: `${name} is past the cap of ${cap} bytes, or not deflated` };
      }
    } else return { problem: `${name}: compression method ${method} is not read` };
    if (text.length > cap) return { problem: `${name} is ${text.length} bytes, past the cap of ${cap}` };
    try {
      writeFileSync(join(dir, name), text, { flag: 'wx' });
    } catch {
      return { problem: `${name} is in the artifact twice` };
    }
  }
  return { dir };
}
