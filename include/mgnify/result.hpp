#pragma once

// Result<T> is for calls that produce many independent outcomes (a batch such as get_studies): one
// failed item must not abort the batch, and its exception keeps its full type.

#include <exception>
#include <memory>
#include <optional>
#include <stdexcept>
#include <utility>

#include "mgnify/error.hpp"
#include "mgnify/version.hpp"

MGNIFY_NAMESPACE_BEGIN

template <class T>
class Result {
 public:
  Result(T value) : value_(std::move(value)) {}  // NOLINT: implicit by design, like std::optional

  /// Holds the currently handled exception, or the one given. Only exceptions
  /// derived from mgnify::Error are expected; anything else is wrapped.
  static Result failure(std::exception_ptr error) { return Result(std::move(error)); }

  template <class E, class = std::enable_if_t<std::is_base_of_v<Error, E>>>
  static Result failure(E error) {
    return Result(std::make_exception_ptr(std::move(error)));
  }

  bool ok() const noexcept { return value_.has_value(); }
  explicit operator bool() const noexcept { return ok(); }

  /// The value; rethrows the stored exception when there is none.
  T& value() & {
    if (!value_) std::rethrow_exception(error_);
    return *value_;
  }
  const T& value() const& {
    if (!value_) std::rethrow_exception(error_);
    return *value_;
  }
  T&& value() && {
    if (!value_) std::rethrow_exception(error_);
    return std::move(*value_);
  }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }

  /// The failure. Precondition: !ok().
  const Error& error() const {
    if (ok()) throw std::logic_error("mgnify::Result::error() called on a success");
    return *error_copy_;
  }
  const std::exception_ptr& exception() const noexcept { return error_; }

  /// Convenience for callers that switch on the type: nullptr when the error is not an E.
  template <class E>
  const E* error_as() const noexcept {
    return ok() ? nullptr : dynamic_cast<const E*>(error_copy_.get());
  }

 private:
  // The caught object is copied (Error::clone) while the handler runs, so the
  // copy does not depend on how long a rethrown exception lives.
  explicit Result(std::exception_ptr error) : error_(std::move(error)) {
    try {
      std::rethrow_exception(error_);
    } catch (const Error& e) {
      error_copy_ = e.clone();
    } catch (const std::exception& e) {
      wrap(Error(e.what()));
    } catch (...) {
      wrap(Error("unknown exception"));
    }
  }
  void wrap(const Error& e) {
    error_ = std::make_exception_ptr(e);
    error_copy_ = e.clone();
  }

  std::optional<T> value_;
  std::exception_ptr error_;
  std::shared_ptr<const Error> error_copy_;
};

MGNIFY_NAMESPACE_END
