#pragma once

// Bodies of RawJson (mgnify/raw_json.hpp) that parse or resolve a pointer.

#include <nlohmann/json.hpp>
#include <string>
#include <utility>

#include "mgnify/config.hpp"
#include "mgnify/error.hpp"
#include "mgnify/raw_json.hpp"

MGNIFY_NAMESPACE_BEGIN

MGNIFY_DECL RawJson RawJson::view(const RawJson& parent, std::string pointer) {
  RawJson r;
  r.holder_ = std::make_shared<const View>(View{parent, std::move(pointer)});
  r.form_ = Form::view;
  return r;
}

MGNIFY_DECL const nlohmann::json& RawJson::resolve() const {
  const void* built = nullptr;
  Parsed* parsed = nullptr;
  if (form_ == Form::view) {
    const auto& view = *static_cast<const View*>(holder_.get());
    try {
      built = &view.parent.json().at(nlohmann::json::json_pointer(view.pointer));
    } catch (const nlohmann::json::exception& e) {
      throw DecodeError(view.pointer, "", std::string("raw view does not resolve: ") + e.what());
    }
  } else {
    parsed = new Parsed();
    try {
      const std::string_view text = text_.view();
      parsed->value = nlohmann::json::parse(text.begin(), text.end());
    } catch (const nlohmann::json::exception& e) {
      delete parsed;
      throw DecodeError("", "", std::string("raw JSON text does not parse: ") + e.what());
    }
    built = parsed;
  }
  const void* expected = nullptr;
  if (!resolved_.compare_exchange_strong(expected, built, std::memory_order_acq_rel,
                                         std::memory_order_acquire)) {
    delete parsed;
  }
  return json();
}

MGNIFY_NAMESPACE_END
