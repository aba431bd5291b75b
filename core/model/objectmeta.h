// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include <QDateTime>
#include <QMap>
#include <QString>
#include <QStringList>

namespace converge {

/// Kubernetes-style object metadata. Identity within a workspace is kind/name.
struct ObjectMeta
{
    QString name;
    QString uid;                ///< assigned by the workspace on first store
    qint64 generation = 0;      ///< bumped by the workspace when the spec changes
    qint64 resourceVersion = 0; ///< bumped on every write; optimistic concurrency token
    QMap<QString, QString> labels;
    QMap<QString, QString> annotations;
    QStringList finalizers;
    QDateTime creationTimestamp; ///< UTC
    QDateTime deletionTimestamp; ///< UTC; set when deletion was requested

    bool isBeingDeleted() const { return deletionTimestamp.isValid(); }

    friend bool operator==(const ObjectMeta &, const ObjectMeta &) = default;
};

} // namespace converge
