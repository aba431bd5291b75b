// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include "fieldschema.h"

#include <QJsonObject>
#include <QStringList>

namespace converge {

/// The field paths on which a desired spec and an observed spec differ.
///
/// Exact rules (kept in step with tst_delta):
/// - Only fields whose schema says `compared` are looked at; a non-compared field hides its
///   whole subtree.
/// - Defaults apply on both sides: an absent field with a default compares as its default.
/// - An absent desired field with no default is not managed: whatever is observed is not drift.
/// - A desired empty map, list or string is managed: it must be observed empty (or absent).
/// - Objects are compared field by field and maps key by key (each differing key is a path);
///   lists index by index (`spec.tags[2].value`), and a length difference names the list itself.
/// - Paths are reported once each, in schema order (map keys sorted).
class Delta final
{
public:
    /// Which fields are looked at: those the schema says are `compared` (drift), or every field
    /// (what a person declared: what apply changes, an immutable field moved).
    enum class Fields { Compared, Every };

    /// `specSchema` is the kind's spec schema (an Object named "spec"); paths start with "spec.".
    static QStringList between(const FieldSchema &specSchema, const QJsonObject &desired,
                               const QJsonObject &observed, Fields fields = Fields::Compared);

    /// True when every path in `delta` is one of `allowed` or lies under one of them
    /// (`spec.metadata.team` lies under `spec.metadata`). Decided path by path, never by counting.
    static bool onlyWithin(const QStringList &delta, const QStringList &allowed);

    /// The paths of `delta` that lie on or under an immutable field of `specSchema`.
    static QStringList immutablePaths(const FieldSchema &specSchema, const QStringList &delta);
};

} // namespace converge
