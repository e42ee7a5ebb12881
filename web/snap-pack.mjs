/* The boot snapshot as Cache Storage holds it: its cache, its headers, its packing and its
 * digest. No imports: the page's loader (snap-loader.mjs), the snapshot maker (snap-maker.mjs)
 * and the early reader (boot-read.mjs, a worker index.html starts on a return visit) share it.
 */

export const CACHE_NAME = "dh-boot-snapshot"; // not "dicehall-…": the service worker deletes those on update
// The stored entry's header with the snapshot's length (snap-maker.mjs), read before its body.
export const LENGTH_HEADER = "X-Dicehall-Snapshot-Length";
// ... and the SHA-256 of the stored (packed) bytes, checked before anything is restored from
// them: a stored entry with a block zeroed inside a kept block passed every other check, and
// the restored interpreter then hung the page on every visit (issue 28).
export const DIGEST_HEADER = "X-Dicehall-Snapshot-Digest";

export async function digestOf(bytes) {
  const hash = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return Array.from(hash, (b) => b.toString(16).padStart(2, "0")).join("");
}

// What Cache Storage holds: the snapshot without its zero blocks. A good third of a snapshot is
// whole zero blocks (the heap's free space: 12.1 of 31.5 MB measured), and reading the entry is
// a large part of a restore. Layout: "DHS1", the snapshot's length (u32 LE), a bitmap with one
// bit per BLOCK (set: the block is stored), then the stored blocks in order.
const MAGIC = [0x44, 0x48, 0x53, 0x31]; // "DHS1"
const BLOCK = 4096;

export function packSnapshot(bytes) {
  if (bytes.byteOffset % 4) bytes = bytes.slice(); // read four bytes at a time below
  const blocks = Math.ceil(bytes.length / BLOCK);
  const bitmap = new Uint8Array(Math.ceil(blocks / 8));
  const words = new Uint32Array(bytes.buffer, bytes.byteOffset, bytes.length >> 2);
  let kept = 0;
  for (let b = 0; b < blocks; b++) {
    const start = b * BLOCK;
    const end = Math.min(start + BLOCK, bytes.length);
    let zero = true;
    for (let w = start >> 2; w < end >> 2 && zero; w++) zero = words[w] === 0;
    for (let i = end & ~3; i < end && zero; i++) zero = bytes[i] === 0;
    if (!zero) { bitmap[b >> 3] |= 1 << (b & 7); kept += end - start; }
  }
  const out = new Uint8Array(8 + bitmap.length + kept);
  out.set(MAGIC, 0);
  new DataView(out.buffer).setUint32(4, bytes.length, true);
  out.set(bitmap, 8);
  let at = 8 + bitmap.length;
  for (let b = 0; b < blocks; b++) {
    if (bitmap[b >> 3] & (1 << (b & 7))) {
      const block = bytes.subarray(b * BLOCK, Math.min((b + 1) * BLOCK, bytes.length));
      out.set(block, at);
      at += block.length;
    }
  }
  return out;
}

// `into`, if given, is a zeroed array of the snapshot's length that receives it (the AI worker's).
export function unpackSnapshot(packed, into) {
  if (packed.length < 8 || MAGIC.some((byte, i) => packed[i] !== byte)) throw new Error("boot snapshot: not ours");
  const length = new DataView(packed.buffer, packed.byteOffset).getUint32(4, true);
  if (into && into.length !== length) throw new Error("boot snapshot: not the length announced");
  const blocks = Math.ceil(length / BLOCK);
  const bitmap = packed.subarray(8, 8 + Math.ceil(blocks / 8));
  const bytes = into || new Uint8Array(length);
  let at = 8 + bitmap.length;
  for (let b = 0; b < blocks; b++) {
    if (bitmap[b >> 3] & (1 << (b & 7))) {
      const size = Math.min(BLOCK, length - b * BLOCK);
      if (at + size > packed.length) throw new Error("boot snapshot: truncated");
      bytes.set(packed.subarray(at, at + size), b * BLOCK);
      at += size;
    }
  }
  if (at !== packed.length) throw new Error("boot snapshot: wrong length");
  return bytes;
}

// The one stored entry, read, checked and unpacked here: {url, length, digest, packed, bytes}
// (`bytes` only when the digest matched), or null when there is no single entry. The caller
// compares `url` with the key it wants (the early reader does not know the app's hash).
export async function readStored() {
  const cache = await caches.open(CACHE_NAME);
  const keys = await cache.keys();
  if (keys.length !== 1) return null;
  const hit = await cache.match(keys[0]);
  if (!hit) return null;
  const packed = new Uint8Array(await hit.arrayBuffer());
  const read = { url: keys[0].url, length: hit.headers.get(LENGTH_HEADER), digest: hit.headers.get(DIGEST_HEADER), packed };
  if (read.digest && (await digestOf(packed)) === read.digest) {
    try { read.bytes = unpackSnapshot(packed); } catch (err) { /* refused by the loader, which reads it again */ }
  }
  return read;
}
