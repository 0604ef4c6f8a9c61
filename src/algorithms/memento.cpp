// memento: MementoHash as the authors' C++ engine computes it
// (MementoEngine::getBucket of their benchmark code, Amos Brocco 2023).
//
// Coluzzi, Brocco, Antonucci, Leidi, "MementoHash: A Stateful, Minimal
// Memory, Best Performing Consistent Hash Algorithm" (IEEE/ACM Transactions
// on Networking, 2024; arXiv:2306.09783). Lookup of a key:
//   b = jump(xxh64(key, seed 0), b_array_size)   (Lamping-Veach, fig. 1)
//   while b was removed, with replacer r (the working size its removal left):
//     b = xxh64(key, seed b) % r, then follow replacers while they are >= r.
// Removing any node moves only its keys; adding restores the last removed
// slot. The state (memento_engine.hpp) is one table entry per removed slot.
#include <cstdint>
#include <memory>

#include "jumphash/algorithms.hpp"
#include "jumphash/hashes.hpp"
#include "memento_engine.hpp"
#include "node_set_algorithms.hpp"

namespace jumphash::node_set {
namespace {

class MementoCppPlacement final : public MementoPlacement {
 public:
  static Result<std::unique_ptr<Placement>> build(NodeList nodes, const OptionValues&) {
    return std::unique_ptr<Placement>(new MementoCppPlacement(std::move(nodes)));
  }

  std::unique_ptr<Placement> clone() const override {
    return std::unique_ptr<Placement>(new MementoCppPlacement(*this));
  }

 private:
  explicit MementoCppPlacement(NodeList nodes) : MementoPlacement(std::move(nodes)) {}
  MementoCppPlacement(const MementoCppPlacement&) = default;

  std::uint32_t locate_slot(std::string_view key) const override {
    const auto first = static_cast<std::uint32_t>(
        jump_hash(xxh64(key), static_cast<std::int32_t>(state_.b_array_size())));
    return state_.resolve(first, [key](std::uint32_t slot, std::uint32_t working) {
      return static_cast<std::uint32_t>(xxh64(key, slot) % working);
    });
  }
};

}  // namespace

const Algorithm kMemento{
    .id = AlgorithmId::memento,
    .kind = AlgorithmKind::node_set,
    .name = "memento",
    .title = "MementoHash (C++ engine)",
    .paper =
        "Coluzzi, Brocco, Antonucci, Leidi, MementoHash: A Stateful, Minimal Memory, Best "
        "Performing Consistent Hash Algorithm (IEEE/ACM Transactions on Networking, 2024; "
        "arXiv:2306.09783); the authors' C++ engine (xxh64 and JumpHash)",
    .expected_cost =
        "one xxh64 and a jump hash (about ln b steps over b slots), then one more xxh64 "
        "each time it lands on a removed slot (rare while few are removed)",
    .memory =
        "one table entry (slot, replacer, previous removed: 12 bytes) per removed node, plus 4 "
        "bytes per slot and per node mapping slots to nodes",
    .consistent = true,
    .removes_any_bucket = true,
    .weights = false,
    .build = &MementoCppPlacement::build,
    .keeps_history = true,
};

}  // namespace jumphash::node_set
