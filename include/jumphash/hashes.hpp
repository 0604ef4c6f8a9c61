// The byte hashes that the placement algorithms of real systems are built
// on. Each is the standard function, bit for bit, so that a ring built here
// equals the one the real library builds.
//
// MD5, CRC-32, one-at-a-time and MurmurHash3 are small, fixed by their
// specifications, and must compile unchanged with Emscripten (no system
// library there), so they live in src/hashes.cpp; the tests check them
// against the specifications' vectors and, natively, against OpenSSL's MD5
// and zlib's crc32. xxHash comes from Debian's libxxhash (header-only).
#pragma once

#include <array>
#include <cstdint>
#include <string_view>

namespace jumphash {

/// MD5 (RFC 1321) of `bytes`: the 16-byte digest.
std::array<std::uint8_t, 16> md5(std::string_view bytes);

/// CRC-32 as zlib's crc32(0, bytes, len) computes it (the ISO-HDLC / IEEE
/// 802.3 polynomial 0xEDB88320, reflected, initial and final xor
/// 0xFFFFFFFF), optionally continuing from a previous `crc`.
std::uint32_t crc32(std::string_view bytes, std::uint32_t crc = 0);

/// Bob Jenkins' one-at-a-time hash as libmemcached's hashkit computes it:
/// each byte is first converted to `char` and sign-extended, as x86's
/// signed char does, so bytes >= 0x80 add 0xFFFFFF80 | byte.
std::uint32_t one_at_a_time(std::string_view bytes);

/// MurmurHash3_x86_32 (Austin Appleby) with `seed`.
std::uint32_t murmur3_x86_32(std::string_view bytes, std::uint32_t seed = 0);

/// XXH64 (libxxhash) of `bytes` with `seed`.
std::uint64_t xxh64(std::string_view bytes, std::uint64_t seed = 0);

/// XXH32 (libxxhash) of `bytes` with `seed`.
std::uint32_t xxh32(std::string_view bytes, std::uint32_t seed = 0);

/// Bytes 4i..4i+3 of an MD5 digest read little-endian (i = 0..3): the four
/// 32-bit points that ketama draws from one digest.
inline std::uint32_t md5_word_le(const std::array<std::uint8_t, 16>& digest, int i) {
  const auto at = [&](int k) {
    return static_cast<std::uint32_t>(digest[static_cast<std::size_t>(4 * i + k)]);
  };
  return at(0) | (at(1) << 8) | (at(2) << 16) | (at(3) << 24);
}

}  // namespace jumphash
