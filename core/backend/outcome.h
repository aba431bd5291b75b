// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include "backenderror.h"

#include <utility>
#include <variant>

namespace converge {

/// A value or the BackendError that prevented it (C++20 has no std::expected).
template<typename T>
class Outcome final
{
public:
    Outcome(T value)
        : m_state(std::move(value))
    {}
    Outcome(BackendError error)
        : m_state(std::move(error))
    {}

    bool ok() const { return std::holds_alternative<T>(m_state); }
    explicit operator bool() const { return ok(); }

    const T &value() const { return std::get<T>(m_state); }
    T &value() { return std::get<T>(m_state); }
    const BackendError &error() const { return std::get<BackendError>(m_state); }

private:
    std::variant<T, BackendError> m_state;
};

} // namespace converge
