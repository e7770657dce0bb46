import { open } from 'node:fs/promises';

/** Reads `length` bytes at `offset` of a local media file (uploads push one chunk at a time, never the whole file). */
export async function readChunk(path: string, offset: number, length: number): Promise<Buffer> {
  const fh = await open(path, 'r');
  try {
    const buf = Buffer.alloc(length);
    let got = 0;
    while (got < length) {
      const { bytesRead } = await fh.read(buf, got, length - got, offset + got);
      if (bytesRead === 0) break;
      got += bytesRead;
    }
    if (got !== length) throw new Error(`${path} ended at ${offset + got} bytes, expected ${offset + length}`);
    return buf;
  } finally {
    await fh.close();
  }
}
