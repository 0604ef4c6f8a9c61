// Byte helpers of the compact link form: UTF-8, base64url (RFC 4648 §5,
// without padding), CRC-32 and raw deflate. They know nothing of links: bad
// input throws a plain Error, and compact.ts turns it into a message about
// the link.

/** The UTF-8 bytes of `text`. */
export function utf8Encode(text: string): Uint8Array {
  return new TextEncoder().encode(text);
}

/** The text of UTF-8 `bytes`; throws a TypeError when they are not valid UTF-8. */
export function utf8Decode(bytes: Uint8Array): string {
  return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
}

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/** base64url of `bytes`, without '=' padding. */
export function base64UrlEncode(bytes: Uint8Array): string {
  let out = '';
  for (let i = 0; i < bytes.length; i += 3) {
    const b0 = bytes[i]!;
    const b1 = i + 1 < bytes.length ? bytes[i + 1]! : 0;
    const b2 = i + 2 < bytes.length ? bytes[i + 2]! : 0;
    const triple = (b0 << 16) | (b1 << 8) | b2;
    out += B64[(triple >> 18) & 63]! + B64[(triple >> 12) & 63]!;
    if (i + 1 < bytes.length) out += B64[(triple >> 6) & 63]!;
    if (i + 2 < bytes.length) out += B64[triple & 63]!;
  }
  return out;
}

/**
 * The bytes of unpadded base64url `text`. Throws a RangeError when `text`
 * holds a character outside A-Z a-z 0-9 - _ or has a length that no byte
 * string encodes to (4k + 1).
 */
export function base64UrlDecode(text: string): Uint8Array {
  if (!/^[A-Za-z0-9_-]*$/.test(text) || text.length % 4 === 1) {
    throw new RangeError('not unpadded base64url text');
  }
  const out = new Uint8Array(Math.floor((text.length * 3) / 4));
  let o = 0;
  for (let i = 0; i < text.length; i += 4) {
    const c = [0, 1, 2, 3].map((j) => (i + j < text.length ? B64.indexOf(text[i + j]!) : 0));
    const triple = (c[0]! << 18) | (c[1]! << 12) | (c[2]! << 6) | c[3]!;
    out[o++] = (triple >> 16) & 255;
    if (i + 2 < text.length) out[o++] = (triple >> 8) & 255;
    if (i + 3 < text.length) out[o++] = triple & 255;
  }
  return out.subarray(0, o);
}

let crcTable: Uint32Array | undefined;

/** CRC-32 (IEEE 802.3, as zlib), 0 ..= 2^32-1. */
export function crc32(bytes: Uint8Array): number {
  if (!crcTable) {
    crcTable = new Uint32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      crcTable[n] = c >>> 0;
    }
  }
  let crc = 0xffffffff;
  for (const byte of bytes) crc = crcTable[(crc ^ byte) & 255]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

/** CRC-32 of `bytes` as 8 lower-case hex digits (the `c=` of a compact link). */
export function crc32Hex(bytes: Uint8Array): string {
  return crc32(bytes).toString(16).padStart(8, '0');
}

async function pipe(bytes: Uint8Array, stream: CompressionStream | DecompressionStream): Promise<Uint8Array> {
  const writer = stream.writable.getWriter();
  void writer.write(bytes as Uint8Array<ArrayBuffer>).catch(() => undefined);
  void writer.close().catch(() => undefined);
  const chunks: Uint8Array[] = [];
  const reader = stream.readable.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value as Uint8Array);
  }
  const out = new Uint8Array(chunks.reduce((sum, chunk) => sum + chunk.length, 0));
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.length;
  }
  return out;
}

/** Raw deflate (RFC 1951, no zlib header) of `bytes`. */
export async function deflateRaw(bytes: Uint8Array): Promise<Uint8Array> {
  return pipe(bytes, new CompressionStream('deflate-raw'));
}

/** Inflates raw deflate data; rejects when `bytes` are not a complete deflate stream. */
export async function inflateRaw(bytes: Uint8Array): Promise<Uint8Array> {
  return pipe(bytes, new DecompressionStream('deflate-raw'));
}
