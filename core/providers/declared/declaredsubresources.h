// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include "apicaller.h"
#include "kinddeclaration.h"

#include <QJsonObject>
#include <QJsonValue>

#include <functional>
#include <optional>

namespace converge {

/// What a kind made of sub-resources needs of the generic Manager (an S3 bucket's versioning,
/// tags, policy, encryption: each read, put and deleted by a call of its own): follow reads
/// that may find nothing set, and updates that remove what an emptied field no longer says.
class DeclaredSubResources final
{
public:
    using Send =
        std::function<Outcome<ApiCaller::Reply>(const DeclaredCall &, const QJsonObject &)>;

    /// Makes `declaration`'s followReads, adding what each answers (its `result`, under its
    /// `into` member when it names one) to `resource`; `$read.MEMBER` in their inputs is a
    /// member of what was read before. An answer with one of the call's `absent` codes adds
    /// nothing (a bucket without tags answers NoSuchTagSet).
    static std::optional<BackendError> follow(const KindDeclaration &declaration, const Send &send,
                                              QJsonObject &resource, const QString &name,
                                              const QString &id, const QJsonObject &spec);
    /// Whether `value` says nothing: undefined, null, "", [], {}, or an object of such values.
    static bool isEmpty(const QJsonValue &value);
    /// Whether `update` is to be made as its `clear` call: it has one, and every field it
    /// carries is empty in `desired` (`policy: ""`, `tagging: {tagSet: []}`).
    static bool clears(const DeclaredCall &update, const QJsonObject &desired);
    /// `update` as its `clear` call: the same input, no fields.
    static DeclaredCall clearCall(const DeclaredCall &update);
    /// Each list of `observed` at a dotted path of `paths` (`tagging.tagSet`) in `desired`'s
    /// order when both hold the same items: S3 answers tags in an order of its own.
    static void orderAsDesired(QJsonObject &observed, const QJsonObject &desired,
                               const QStringList &paths);
};

} // namespace converge
