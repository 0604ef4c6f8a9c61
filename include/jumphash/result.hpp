// Result<T>: a value or an error message, returned instead of throwing.
//
// The core never throws across its public API: the WebAssembly bindings turn
// a Result into a JavaScript RangeError, the CLI into `line N: error: ...`.
#pragma once

#include <string>
#include <utility>
#include <variant>

namespace jumphash {

/// What went wrong, in words meant for the user: it names the bad input and
/// what is allowed, e.g. "bucket count must be an integer in 1..2147483647".
struct Error {
  std::string message;
};

template <class T>
class Result {
 public:
  Result(T value) : state_(std::move(value)) {}          // NOLINT(implicit)
  Result(Error error) : state_(std::move(error)) {}      // NOLINT(implicit)

  bool ok() const { return state_.index() == 0; }
  explicit operator bool() const { return ok(); }

  const T& value() const& { return std::get<0>(state_); }
  T& value() & { return std::get<0>(state_); }
  T&& value() && { return std::get<0>(std::move(state_)); }
  const T& operator*() const& { return value(); }
  const T* operator->() const { return &value(); }

  const std::string& error() const { return std::get<1>(state_).message; }

 private:
  std::variant<T, Error> state_;
};

/// Builds an Error from pieces, for `return fail("x must be ", range);`.
template <class... Parts>
Error fail(Parts&&... parts) {
  std::string message;
  (message.append(std::forward<Parts>(parts)), ...);
  return Error{std::move(message)};
}

}  // namespace jumphash
