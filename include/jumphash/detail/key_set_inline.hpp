// KeySet::for_each, inline so that report loops specialise per segment kind.
#pragma once

#include <algorithm>

#include "jumphash/splitmix64.hpp"

namespace jumphash {

template <class Visit>
void KeySet::for_each(std::uint64_t begin, std::uint64_t end, Visit&& visit) const {
  end = std::min(end, size_);
  for (std::size_t s = 0; s < segments_.size() && begin < end; ++s) {
    const std::uint64_t seg_start = starts_[s];
    const std::uint64_t seg_end = s + 1 < starts_.size() ? starts_[s + 1] : size_;
    if (begin >= seg_end) continue;
    const std::uint64_t from = begin - seg_start;
    const std::uint64_t to = std::min(end, seg_end) - seg_start;
    const Segment& segment = segments_[s];
    if (const auto* range = std::get_if<KeyRange>(&segment)) {
      for (std::uint64_t i = from; i < to; ++i) visit(range->first + i, nullptr);
    } else if (const auto* random = std::get_if<RandomKeys>(&segment)) {
      for (std::uint64_t i = from; i < to; ++i) visit(splitmix64_at(random->seed, i), nullptr);
    } else {
      const auto& keys = std::get<ExplicitKeys>(segment).keys;
      for (std::uint64_t i = from; i < to; ++i) {
        const Key& key = keys[static_cast<std::size_t>(i)];
        visit(key.value, key.label.empty() ? nullptr : &key.label);
      }
    }
    begin = seg_start + to;
  }
}

template <class Visit>
void KeySet::for_each_key(std::uint64_t begin, std::uint64_t end, Visit&& visit) const {
  end = std::min(end, size_);
  for (std::size_t s = 0; s < segments_.size() && begin < end; ++s) {
    const std::uint64_t seg_start = starts_[s];
    const std::uint64_t seg_end = s + 1 < starts_.size() ? starts_[s + 1] : size_;
    if (begin >= seg_end) continue;
    const std::uint64_t from = begin - seg_start;
    const std::uint64_t to = std::min(end, seg_end) - seg_start;
    const Segment& segment = segments_[s];
    if (const auto* range = std::get_if<KeyRange>(&segment)) {
      for (std::uint64_t i = from; i < to; ++i)
        visit(range->first + i, static_cast<const Key*>(nullptr));
    } else if (const auto* random = std::get_if<RandomKeys>(&segment)) {
      for (std::uint64_t i = from; i < to; ++i) {
        visit(splitmix64_at(random->seed, i), static_cast<const Key*>(nullptr));
      }
    } else {
      const auto& keys = std::get<ExplicitKeys>(segment).keys;
      for (std::uint64_t i = from; i < to; ++i) {
        const Key& key = keys[static_cast<std::size_t>(i)];
        visit(key.value, key.label.empty() ? static_cast<const Key*>(nullptr) : &key);
      }
    }
    begin = seg_start + to;
  }
}

inline std::string_view key_bytes(std::uint64_t value, const Key* key, std::string& scratch) {
  if (key) return key->text;
  scratch.clear();
  append_decimal(scratch, value);
  return scratch;
}

}  // namespace jumphash
