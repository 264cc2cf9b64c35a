import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createInflateRaw } from 'node:zlib';

/**
 * How many bytes the entries of a zip (an XLSX) inflate to, counted while inflating, 64 KB of input at a time into
 * a counter that keeps nothing: it stops as soon as the count passes `cap`, so a zip bomb costs neither memory nor
 * the time to inflate it whole. The sizes a zip declares are not trusted. Answers the count (above `cap` when it
 * stopped) or undefined for what is not a zip this reads (zip64, an unknown compression method, a broken entry).
 */
export async function inflatedSize(zip: Buffer, cap: number): Promise<number | undefined> {
  const entries = centralDirectory(zip);
  if (!entries) return undefined;
  let total = 0;
  for (const entry of entries) {
    const data = entryData(zip, entry);
    if (!data) return undefined;
    if (entry.method === STORED) {
      total += data.length;
    } else {
      const counter = new Writable({
        write(chunk: Buffer, _encoding, done) {
          total += chunk.length;
          done(total > cap ? new PastCap() : null);
        },
      });
      try {
        await pipeline(Readable.from(slices(data)), createInflateRaw(), counter);
      } catch (error) {
        if (error instanceof PastCap) return total;
        return undefined;
      }
    }
    if (total > cap) return total;
  }
  return total;
}

class PastCap extends Error {}

const STORED = 0;
const DEFLATED = 8;
const END_OF_DIRECTORY = 0x06054b50;
const DIRECTORY_ENTRY = 0x02014b50;
const LOCAL_HEADER = 0x04034b50;
const SLICE = 64 * 1024;

interface Entry {
  method: number;
  compressedSize: number;
  localHeader: number;
}

function* slices(data: Buffer) {
  for (let at = 0; at < data.length; at += SLICE) yield data.subarray(at, at + SLICE);
}

/** The entries the zip's central directory lists, or undefined when there is none this can read. */
function centralDirectory(zip: Buffer): Entry[] | undefined {
  // The end record is the last 22 bytes, before a comment of at most 65,535 bytes.
  let end = -1;
  for (let at = zip.length - 22; at >= Math.max(0, zip.length - 22 - 0xffff); at--) {
    if (zip.readUInt32LE(at) === END_OF_DIRECTORY) {
      end = at;
      break;
    }
  }
  if (end < 0) return undefined;
  const count = zip.readUInt16LE(end + 10);
  let at = zip.readUInt32LE(end + 16);
  const entries: Entry[] = [];
  for (let index = 0; index < count; index++) {
    if (at + 46 > zip.length || zip.readUInt32LE(at) !== DIRECTORY_ENTRY) return undefined;
    const method = zip.readUInt16LE(at + 10);
    const compressedSize = zip.readUInt32LE(at + 20);
    const localHeader = zip.readUInt32LE(at + 42);
    // 0xffffffff says the real value is in a zip64 record: no XLSX under the upload cap needs one.
    if (compressedSize === 0xffffffff || localHeader === 0xffffffff) return undefined;
    if (method !== STORED && method !== DEFLATED) return undefined;
    entries.push({ method, compressedSize, localHeader });
    at += 46 + zip.readUInt16LE(at + 28) + zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32);
  }
  return entries;
}

function entryData(zip: Buffer, entry: Entry): Buffer | undefined {
  const at = entry.localHeader;
  if (at + 30 > zip.length || zip.readUInt32LE(at) !== LOCAL_HEADER) return undefined;
  const start = at + 30 + zip.readUInt16LE(at + 26) + zip.readUInt16LE(at + 28);
  if (start + entry.compressedSize > zip.length) return undefined;
  return zip.subarray(start, start + entry.compressedSize);
}
