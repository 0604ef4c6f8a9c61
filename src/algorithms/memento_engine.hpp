// MementoHash's state and its mapping onto a node list, shared by the two
// engines of the authors (memento.cpp: C++, memento_java.cpp: Java), which
// differ only in the hashes of the lookup.
//
// Coluzzi, Brocco, Antonucci, Leidi, "MementoHash: A Stateful, Minimal
// Memory, Best Performing Consistent Hash Algorithm" (IEEE/ACM Transactions
// on Networking, 2024; arXiv:2306.09783). Buckets ("slots" here) 0..b-1 of a
// jump hash over b = b_array_size; a removed slot s keeps one entry
// s -> (replacer, prev_removed), where replacer = the working size left by
// the removal and prev_removed chains the removals for LIFO restores.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "jumphash/nodes.hpp"

namespace jumphash::node_set {

/// The replacement table of MementoHash and the two counters beside it.
class MementoState {
 public:
  /// `n` working slots 0..n-1 (n >= 1), nothing removed.
  explicit MementoState(std::uint32_t n) : b_array_size_(n), last_removed_(n) {}

  /// Slots the jump hash draws from (working and removed ones).
  std::uint32_t b_array_size() const { return b_array_size_; }

  /// Working slots.
  std::uint32_t size() const { return b_array_size_ - static_cast<std::uint32_t>(table_.size()); }

  /// Bytes of the replacement table: one (slot, replacer, prev_removed) per entry.
  std::size_t table_bytes() const { return table_.size() * sizeof(std::uint32_t) * 3; }

  /// Removes working slot `slot`: the last slot of an untouched table just
  /// shrinks b_array_size (jump hash's own shrink); any other gets an entry
  /// (size before the removal - 1, last_removed).
  void remove(std::uint32_t slot) {
    if (table_.empty() && slot == b_array_size_ - 1) {
      b_array_size_ = last_removed_ = slot;
      return;
    }
    const Entry entry{size() - 1, last_removed_};  // before the insertion changes size()
    table_.emplace(slot, entry);
    last_removed_ = slot;
  }

  /// Restores the last removed slot (or appends slot b_array_size when none
  /// is remembered) and returns it.
  std::uint32_t add() {
    const std::uint32_t slot = last_removed_;
    const auto entry = table_.find(slot);
    if (entry == table_.end()) {
      last_removed_ = slot + 1;
    } else {
      last_removed_ = entry->second.prev_removed;
      table_.erase(entry);
    }
    b_array_size_ = std::max(b_array_size_, slot + 1);
    return slot;
  }

  /// The working slot of a key whose jump hash over b_array_size() is
  /// `slot`. `rehash(slot, working)` must return the key's slot in
  /// [0, working) drawn with seed `slot`. Follows the replacements as
  /// getBucket does in both engines.
  template <class Rehash>
  std::uint32_t resolve(std::uint32_t slot, Rehash rehash) const {
    std::int64_t working = replacer(slot);
    while (working >= 0) {
      slot = rehash(slot, static_cast<std::uint32_t>(working));
      std::int64_t next = replacer(slot);
      while (next >= working) {  // removed after the slot we came from: take its replacer
        slot = static_cast<std::uint32_t>(next);
        next = replacer(slot);
      }
      working = next;
    }
    return slot;
  }

 private:
  struct Entry {
    std::uint32_t replacer;      // working slots left by the removal
    std::uint32_t prev_removed;  // the slot removed before this one
  };

  /// The replacer of `slot`, or -1 when it works.
  std::int64_t replacer(std::uint32_t slot) const {
    const auto entry = table_.find(slot);
    return entry == table_.end() ? -1 : std::int64_t{entry->second.replacer};
  }

  std::unordered_map<std::uint32_t, Entry> table_;
  std::uint32_t b_array_size_;
  std::uint32_t last_removed_;
};

/// A MementoHash placement: slot s initially holds nodes[s]; removing a node
/// removes its slot; adding a node restores the last removed slot (LIFO) or
/// appends a slot, and the node goes to the end of nodes(). Subclasses give
/// the lookup (`locate_slot`) and `clone`.
class MementoPlacement : public Placement {
 public:
  std::uint32_t locate(std::string_view key) const override {
    return node_of_slot_[locate_slot(key)];
  }

  /// The replacement table and the slot <-> node maps (4 bytes a slot and 4 a node).
  std::size_t state_bytes() const override {
    return state_.table_bytes() +
           (node_of_slot_.size() + slot_of_node_.size()) * sizeof(std::uint32_t);
  }

  Result<bool> remove(std::size_t index) override {
    const std::uint32_t slot = slot_of_node_[index];
    state_.remove(slot);
    nodes_.erase(nodes_.begin() + static_cast<std::ptrdiff_t>(index));
    slot_of_node_.erase(slot_of_node_.begin() + static_cast<std::ptrdiff_t>(index));
    node_of_slot_[slot] = kNoNode;
    node_of_slot_.resize(state_.b_array_size());  // a tail shrink drops the slot
    for (std::uint32_t& node : node_of_slot_) {
      if (node != kNoNode && node > index) --node;
    }
    return true;
  }

  Result<bool> add(const Node& node) override {
    const std::uint32_t slot = state_.add();
    if (slot >= node_of_slot_.size()) node_of_slot_.resize(slot + std::size_t{1}, kNoNode);
    node_of_slot_[slot] = static_cast<std::uint32_t>(nodes_.size());
    slot_of_node_.push_back(slot);
    nodes_.push_back(node);
    return true;
  }

  /// MementoHash has no weights: nothing changes.
  Result<bool> reweight(std::size_t, std::uint32_t) override { return true; }

 protected:
  explicit MementoPlacement(NodeList nodes)
      : Placement(std::move(nodes)), state_(static_cast<std::uint32_t>(nodes_.size())) {
    for (std::uint32_t slot = 0; slot < nodes_.size(); ++slot) {
      node_of_slot_.push_back(slot);
      slot_of_node_.push_back(slot);
    }
  }
  MementoPlacement(const MementoPlacement&) = default;

  /// The working slot that `key` (its bytes) maps to.
  virtual std::uint32_t locate_slot(std::string_view key) const = 0;

  MementoState state_;

 private:
  static constexpr std::uint32_t kNoNode = std::numeric_limits<std::uint32_t>::max();

  std::vector<std::uint32_t> node_of_slot_;  // index in nodes_, kNoNode for removed slots
  std::vector<std::uint32_t> slot_of_node_;  // parallel to nodes_
};

}  // namespace jumphash::node_set
