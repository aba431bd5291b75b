// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include "event.h"
#include "resource.h"
#include "workspacetypes.h"

#include <QByteArray>
#include <QDateTime>
#include <QJsonObject>
#include <QList>
#include <QStringList>

#include <optional>

namespace converge {

class Console;
class KindRegistry;

/// Renders resources and events for `get`, `events` and `export`: tables for people; YAML and
/// JSON (stable, documented in docs/cli.md) for programs.
///
/// - table: KIND/NAME, READY, REASON, AGE; wide adds POLICY, GENERATION, OBSERVED, MESSAGE.
/// - yaml, json: ManifestWriter's manifests with status and the workspace's bookkeeping. A
///   request that named one object gets that object; any other gets a List (JSON) or documents
///   separated by `---` (YAML).
/// - name: `kind/name`, one per line.
/// Events: table (LAST SEEN, TYPE, REASON, OBJECT, COUNT, MESSAGE), wide (adds PHASE, FIRST SEEN,
/// RECONCILE ID, REQUEST ID), json (an EventList), jsonl (one compact event per line).
class OutputFormatter final
{
public:
    enum class Format { Table, Wide, Yaml, Json, Name, JsonLines };

    /// table, wide, yaml, json, name, jsonl.
    static std::optional<Format> formatFromName(const QString &name);

    /// `registry` must outlive the formatter; `now` is what ages are measured from; `console`
    /// (may be null) paints the READY and TYPE columns.
    OutputFormatter(const KindRegistry &registry, Format format, const QDateTime &now,
                    const Console *console = nullptr);

    /// `single`: the request named exactly one object (`get kind/name`).
    QByteArray resources(const QList<Resource> &resources, bool single = false) const;
    /// `get --unmanaged` and `--all`: the managed `resources` as resources() shows them, and the
    /// discovered ones that nothing manages. Tables print them apart (KIND/NAME by backend
    /// name, OWNER, FIRST SEEN, LAST SEEN; wide adds RESOURCE ID); yaml and json print each as
    /// the manifest Claim would store, with `status.unmanaged: true` and what was observed.
    QByteArray withUnmanaged(const QList<Resource> &resources,
                             const QList<DiscoveredResource> &unmanaged, bool single) const;
    /// The manifest of a discovered resource for yaml and json: apiVersion, kind, metadata (the
    /// name Claim would give it, the resource ID), spec (what Claim would store), status
    /// (unmanaged: true, owner, backendName, firstSeen, lastSeen, observed).
    static QJsonObject unmanagedDocument(const DiscoveredResource &item,
                                         const KindRegistry &registry);
    /// Events, oldest first.
    QByteArray events(const QList<Event> &events) const;

    /// One event as a line for `events --follow` in a table format:
    /// `2024-05-01T10:00:00Z  Warning  WaitingForOwner  blobcontainer/x  message`.
    QString eventLine(const Event &event) const;

private:
    const KindRegistry &m_registry;
    Format m_format;
    QDateTime m_now;
    const Console *m_console;
};

} // namespace converge
