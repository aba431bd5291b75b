// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include "declaredhook.h"

namespace converge {

/// The `spannerInstance` hook: Spanner answers an instance's capacity twice, as nodes and as
/// processing units (nodeCount 1 is processingUnits 1000), and takes it once: a create or update
/// that names both is refused. So the capacity is observed in the unit the spec gives it in;
/// where no spec says (a listing, a claim), in nodes when it is a whole number of them, else in
/// processing units, so that a claimed instance can be created again as it is.
class SpannerInstanceHook final : public DeclaredHook
{
public:
    void listed(Observation &o) override { capacityIn(o, {}); }
    std::optional<BackendError> observe(Observation &o, const QJsonObject &resource,
                                        const QJsonObject &desired, const Target &target,
                                        const QSet<QString> &sent) override
    {
        Q_UNUSED(resource)
        Q_UNUSED(target)
        Q_UNUSED(sent)
        capacityIn(o, desired);
        return std::nullopt;
    }

    /// `o`'s capacity in the unit `desired` gives it in (see the class).
    static void capacityIn(Observation &o, const QJsonObject &desired);
};

} // namespace converge
