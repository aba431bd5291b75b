// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include "resource.h"

#include <QByteArray>
#include <QJsonObject>
#include <QList>

namespace converge {

class KindRegistry;

/// Writes resources as manifests that ManifestReader reads back to the same objects.
///
/// Stable output: apiVersion, kind, metadata (name, labels, annotations; the workspace's own
/// bookkeeping — uid, generation, resourceVersion, timestamps, finalizers — only when `full`),
/// spec in the kind's schema order (unknown kinds: key order), status last and only when asked.
/// Writing what was read gives the same text again.
///
/// YAML is block style with two-space indents. A string is quoted (double quotes) when it would
/// read back as something else — here or in a YAML 1.1 reader: "true", "yes", "123", "1.5",
/// "12:30", "", leading or trailing blanks — or holds control characters; a string of lines
/// ending in one line break is a literal block (`|`). JSON is indented by four spaces, in the
/// same order.
class ManifestWriter final
{
public:
    struct Options
    {
        bool withStatus = false;
        bool full = false; ///< include uid, generation, resourceVersion, timestamps, finalizers
    };

    /// `registry` must outlive the writer.
    explicit ManifestWriter(const KindRegistry &registry);
    ManifestWriter(const KindRegistry &registry, const Options &options);

    /// Multi-document YAML, documents separated by "---".
    QByteArray toYaml(const QList<Resource> &resources) const;
    /// One object, or a {"apiVersion": "v1", "kind": "List", "items": [...]} for several.
    QByteArray toJson(const QList<Resource> &resources) const;
    /// Documents of kinds no registry knows (ASO, ACK), in the same styles: apiVersion, kind,
    /// metadata (name, namespace, labels, annotations), spec, each object's keys sorted.
    static QByteArray documentsToYaml(const QList<QJsonObject> &documents);
    static QByteArray documentsToJson(const QList<QJsonObject> &documents);

private:
    const KindRegistry &m_registry;
    Options m_options;
};

} // namespace converge
