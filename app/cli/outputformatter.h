// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include "event.h"
#include "resource.h"

#include <QByteArray>
#include <QDateTime>
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
