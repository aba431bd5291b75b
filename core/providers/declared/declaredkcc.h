// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include "kind.h"

#include <QJsonObject>
#include <QList>
#include <QMap>
#include <QPair>
#include <QString>
#include <QStringList>

namespace converge {

/// How a declared Google Cloud kind maps to its counterpart in Config Connector (the `kcc:` part
/// of its declaration), for one exporter and one importer. Spec fields keep their names; a
/// reference (`topicRef: {name}`) is KCC's `topicRef: {name}` as it is; the project is the
/// `cnrm.cloud.google.com/project-id` annotation.
struct DeclaredKcc
{
    QString apiVersion; ///< e.g. pubsub.cnrm.cloud.google.com/v1beta1; empty: no counterpart
    QString kind;       ///< e.g. PubSubTopic
    /// The spec field KCC keeps in metadata.labels (KCC has no spec.labels).
    QString labels;
    /// A spec field that holds a Google name directly, as a KCC reference takes it.
    struct ExternalRef
    {
        QString ref; ///< the KCC reference (dotted path) that holds it as `{external: …}`
        /// The Google name of a KCC object the reference names by `{name}` instead, with
        /// `{project}` and `{name}` (its resourceID, else its metadata.name) to fill in, e.g.
        /// `projects/{project}/topics/{name}`; empty when Converge cannot tell it.
        QString names;
    };
    /// By spec field (dotted path): `topic` → `topicRef`, `deadLetterPolicy.deadLetterTopic` →
    /// `deadLetterPolicy.deadLetterTopicRef`.
    QMap<QString, ExternalRef> externalRefs;
    /// Spec fields (dotted paths) KCC's kind does not have.
    QStringList omit;

    bool isDeclared() const { return !apiVersion.isEmpty() && !kind.isEmpty(); }

    /// Reads a declaration's `kcc:` object for `kind`; what is wrong goes to `problems` as
    /// (JSON path, message) pairs.
    static DeclaredKcc read(const QJsonObject &o, const Kind &kind, const QString &path,
                            QList<QPair<QString, QString>> *problems);
};

} // namespace converge
