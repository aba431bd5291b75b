// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

namespace converge {

/// How one spec field of a declared kind travels in its cloud API: the member it is sent as and
/// the member it comes back as, and the same for the fields of an object (or of a list's
/// objects). ACK's names (`retentionDays`) are the spec's; the model's (`retentionInDays`,
/// `RetentionInDays`) are the wire's.
struct ApiField
{
    QString field;          ///< the spec's name
    QString member;         ///< the input member it is sent as
    QString observed;       ///< the member a read answers it in; empty for `member`
    QList<ApiField> fields; ///< an object's fields, or the fields of a list's objects

    const QString &observedMember() const { return observed.isEmpty() ? member : observed; }

    /// `spec`'s fields named in `only` (all when empty), as API members.
    static QJsonObject toApi(const QList<ApiField> &fields, const QJsonObject &spec,
                             const QStringList &only = {});
    /// The spec fields found in `api` (a read's answer), by their observed members.
    static QJsonObject fromApi(const QList<ApiField> &fields, const QJsonObject &api);
    /// The API members of `fields` that fromApi() reads.
    static QStringList observedMembers(const QList<ApiField> &fields);
};

} // namespace converge
