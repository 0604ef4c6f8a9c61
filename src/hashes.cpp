// Byte hashes used by the placement algorithms; see jumphash/hashes.hpp.
#include "jumphash/hashes.hpp"

#include <cstring>

#define XXH_INLINE_ALL
#include <xxhash.h>

namespace jumphash {
namespace {

// ---- MD5, RFC 1321 section 3 ----------------------------------------------

constexpr std::uint32_t kMd5Shift[64] = {
    7,  12, 17, 22, 7,  12, 17, 22, 7,  12, 17, 22, 7,  12, 17, 22, 5,  9,  14, 20, 5,  9,
    14, 20, 5,  9,  14, 20, 5,  9,  14, 20, 4,  11, 16, 23, 4,  11, 16, 23, 4,  11, 16, 23,
    4,  11, 16, 23, 6,  10, 15, 21, 6,  10, 15, 21, 6,  10, 15, 21, 6,  10, 15, 21};

// T[i] = floor(2^32 * |sin(i + 1)|), the table of RFC 1321 section 3.4.
constexpr std::uint32_t kMd5Sine[64] = {
    0xd76aa478, 0xe8c7b756, 0x242070db, 0xc1bdceee, 0xf57c0faf, 0x4787c62a, 0xa8304613, 0xfd469501,
    0x698098d8, 0x8b44f7af, 0xffff5bb1, 0x895cd7be, 0x6b901122, 0xfd987193, 0xa679438e, 0x49b40821,
    0xf61e2562, 0xc040b340, 0x265e5a51, 0xe9b6c7aa, 0xd62f105d, 0x02441453, 0xd8a1e681, 0xe7d3fbc8,
    0x21e1cde6, 0xc33707d6, 0xf4d50d87, 0x455a14ed, 0xa9e3e905, 0xfcefa3f8, 0x676f02d9, 0x8d2a4c8a,
    0xfffa3942, 0x8771f681, 0x6d9d6122, 0xfde5380c, 0xa4beea44, 0x4bdecfa9, 0xf6bb4b60, 0xbebfbc70,
    0x289b7ec6, 0xeaa127fa, 0xd4ef3085, 0x04881d05, 0xd9d4d039, 0xe6db99e5, 0x1fa27cf8, 0xc4ac5665,
    0xf4292244, 0x432aff97, 0xab9423a7, 0xfc93a039, 0x655b59c3, 0x8f0ccc92, 0xffeff47d, 0x85845dd1,
    0x6fa87e4f, 0xfe2ce6e0, 0xa3014314, 0x4e0811a1, 0xf7537e82, 0xbd3af235, 0x2ad7d2bb, 0xeb86d391};

constexpr std::uint32_t rotl32(std::uint32_t x, std::uint32_t r) {
  return (x << r) | (x >> ((32 - r) & 31));
}

void md5_block(std::uint32_t state[4], const std::uint8_t block[64]) {
  std::uint32_t m[16];
  for (int i = 0; i < 16; ++i) {
    m[i] = static_cast<std::uint32_t>(block[4 * i]) |
           (static_cast<std::uint32_t>(block[4 * i + 1]) << 8) |
           (static_cast<std::uint32_t>(block[4 * i + 2]) << 16) |
           (static_cast<std::uint32_t>(block[4 * i + 3]) << 24);
  }
  std::uint32_t a = state[0], b = state[1], c = state[2], d = state[3];
  for (std::uint32_t i = 0; i < 64; ++i) {
    std::uint32_t f, g;
    if (i < 16) {
      f = (b & c) | (~b & d), g = i;
    } else if (i < 32) {
      f = (d & b) | (~d & c), g = (5 * i + 1) % 16;
    } else if (i < 48) {
      f = b ^ c ^ d, g = (3 * i + 5) % 16;
    } else {
      f = c ^ (b | ~d), g = (7 * i) % 16;
    }
    const std::uint32_t rotated = rotl32(a + f + kMd5Sine[i] + m[g], kMd5Shift[i]);
    a = d, d = c, c = b, b = b + rotated;
  }
  state[0] += a, state[1] += b, state[2] += c, state[3] += d;
}

// ---- CRC-32 ------------------------------------------------------------------

struct Crc32Table {
  std::uint32_t entries[256];
  constexpr Crc32Table() : entries() {
    for (std::uint32_t i = 0; i < 256; ++i) {
      std::uint32_t c = i;
      for (int k = 0; k < 8; ++k) c = (c & 1) ? 0xEDB88320U ^ (c >> 1) : c >> 1;
      entries[i] = c;
    }
  }
};
constexpr Crc32Table kCrc32Table;

std::uint32_t read32le(const unsigned char* p) {
  return static_cast<std::uint32_t>(p[0]) | (static_cast<std::uint32_t>(p[1]) << 8) |
         (static_cast<std::uint32_t>(p[2]) << 16) | (static_cast<std::uint32_t>(p[3]) << 24);
}

}  // namespace

std::array<std::uint8_t, 16> md5(std::string_view bytes) {
  std::uint32_t state[4] = {0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476};
  const auto* data = reinterpret_cast<const std::uint8_t*>(bytes.data());
  const std::size_t size = bytes.size();
  std::size_t full = size / 64 * 64;
  for (std::size_t i = 0; i < full; i += 64) md5_block(state, data + i);
  // Padding: 0x80, zeros to 56 mod 64, then the bit length little-endian.
  std::uint8_t tail[128] = {};
  const std::size_t rest = size - full;
  if (rest) std::memcpy(tail, data + full, rest);
  tail[rest] = 0x80;
  const std::size_t tail_size = rest < 56 ? 64 : 128;
  const std::uint64_t bits = static_cast<std::uint64_t>(size) * 8;
  for (int k = 0; k < 8; ++k)
    tail[tail_size - 8 + static_cast<std::size_t>(k)] = static_cast<std::uint8_t>(bits >> (8 * k));
  for (std::size_t i = 0; i < tail_size; i += 64) md5_block(state, tail + i);
  std::array<std::uint8_t, 16> digest{};
  for (int w = 0; w < 4; ++w) {
    for (int k = 0; k < 4; ++k) {
      digest[static_cast<std::size_t>(4 * w + k)] = static_cast<std::uint8_t>(state[w] >> (8 * k));
    }
  }
  return digest;
}

std::uint32_t crc32(std::string_view bytes, std::uint32_t crc) {
  crc = ~crc;
  for (char ch : bytes) {
    crc = kCrc32Table.entries[(crc ^ static_cast<unsigned char>(ch)) & 0xFF] ^ (crc >> 8);
  }
  return ~crc;
}

std::uint32_t one_at_a_time(std::string_view bytes) {
  std::uint32_t value = 0;
  for (char ch : bytes) {
    // libmemcached: `uint32_t val = (uint32_t) *ptr;` on a const char*, so a
    // byte >= 0x80 is sign-extended on x86 (signed char).
    const auto sign_extended =
        static_cast<std::uint32_t>(static_cast<std::int32_t>(static_cast<signed char>(ch)));
    value += sign_extended;
    value += (value << 10);
    value ^= (value >> 6);
  }
  value += (value << 3);
  value ^= (value >> 11);
  value += (value << 15);
  return value;
}

std::uint32_t murmur3_x86_32(std::string_view bytes, std::uint32_t seed) {
  const auto* data = reinterpret_cast<const unsigned char*>(bytes.data());
  const std::size_t size = bytes.size();
  const std::size_t blocks = size / 4;
  constexpr std::uint32_t c1 = 0xcc9e2d51, c2 = 0x1b873593;
  std::uint32_t h = seed;
  for (std::size_t i = 0; i < blocks; ++i) {
    std::uint32_t k = read32le(data + 4 * i);
    k *= c1;
    k = rotl32(k, 15);
    k *= c2;
    h ^= k;
    h = rotl32(h, 13);
    h = h * 5 + 0xe6546b64;
  }
  const unsigned char* tail = data + 4 * blocks;
  std::uint32_t k = 0;
  switch (size & 3) {
    case 3:
      k ^= static_cast<std::uint32_t>(tail[2]) << 16;
      [[fallthrough]];
    case 2:
      k ^= static_cast<std::uint32_t>(tail[1]) << 8;
      [[fallthrough]];
    case 1:
      k ^= tail[0];
      k *= c1;
      k = rotl32(k, 15);
      k *= c2;
      h ^= k;
  }
  h ^= static_cast<std::uint32_t>(size);
  h ^= h >> 16;
  h *= 0x85ebca6b;
  h ^= h >> 13;
  h *= 0xc2b2ae35;
  h ^= h >> 16;
  return h;
}

std::uint64_t xxh64(std::string_view bytes, std::uint64_t seed) {
  return XXH64(bytes.data(), bytes.size(), seed);
}

std::uint32_t xxh32(std::string_view bytes, std::uint32_t seed) {
  return XXH32(bytes.data(), bytes.size(), seed);
}

}  // namespace jumphash
