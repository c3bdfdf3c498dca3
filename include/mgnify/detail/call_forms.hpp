#pragma once

// The shorter forms of the calls whose optional options (a list's filters and
// ListOptions, a batch's BatchOptions, a genome's GenomeLookup) come between
// their required arguments and their CallOptions. One rule in the three
// clients: any of those options may be left out, and the CallOptions still
// come last, so no call needs a `{}` in place of options it does not set
// (docs/clients.md, "Options left out").
//
// Each client declares a call's full form by hand, with its comment; the
// macros below add the shorter forms right after it, so that the rule is
// written here alone. A form that takes CallOptions where the full form takes
// other options is a member template with no parameter of its own: for a `{}`
// argument, which both would accept, the full form (a plain member) is then
// the better match, so `client.assemblies({})` still compiles and means
// `client.assemblies(ListOptions{})`.
//
// `params` are the call's required parameters and `args` their names, each
// followed by a comma and all in parentheses: `(const std::string& acc,)` and
// `(acc,)`, or `()` and `()` for none.

#include "mgnify/call_options.hpp"
#include "mgnify/list_options.hpp"

#define MGNIFY_DETAIL_UNPAREN(...) __VA_ARGS__

/// For a call `Result name(params..., <options>, const CallOptions& call = {}) const` whose
/// options all have defaults: name(params..., call). `defaults` are the values passed for
/// the options left out, in parentheses: `(ListOptions())`, `(BatchOptions())`.
#define MGNIFY_CALL_ONLY_FORM(Result, name, defaults, params, args)               \
  template <class = void>                                                         \
  Result name(MGNIFY_DETAIL_UNPAREN params const CallOptions& call) const {       \
    return name(MGNIFY_DETAIL_UNPAREN args MGNIFY_DETAIL_UNPAREN defaults, call); \
  }

/// For a list `Result name(params..., const Filters& filters = {}, const ListOptions& list = {},
/// const CallOptions& call = {}) const`: name(params..., list, call),
/// name(params..., filters, call) and name(params..., call).
#define MGNIFY_FILTERED_LIST_FORMS(Result, name, Filters, params, args)                           \
  Result name(MGNIFY_DETAIL_UNPAREN params const ListOptions& list, const CallOptions& call = {}) \
      const {                                                                                     \
    return name(MGNIFY_DETAIL_UNPAREN args Filters(), list, call);                                \
  }                                                                                               \
  template <class = void>                                                                         \
  Result name(MGNIFY_DETAIL_UNPAREN params const Filters& filters, const CallOptions& call)       \
      const {                                                                                     \
    return name(MGNIFY_DETAIL_UNPAREN args filters, ListOptions(), call);                         \
  }                                                                                               \
  MGNIFY_CALL_ONLY_FORM(Result, name, (Filters(), ListOptions()), params, args)
