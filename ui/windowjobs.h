// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include "asoexporter.h"
#include "event.h"
#include "resource.h"
#include "resourcekey.h"

#include <QHash>
#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

namespace converge {

class KindRegistry;
class Workspace;
struct StoreError;

/// The window's work on the workspace, as it runs on a WorkspaceRunner's thread: values in,
/// values out, no widgets. Each takes the runner's workspace (null when it could not be opened)
/// and the error that says why.
class WindowJobs final
{
public:
    /// What a write did, for the window to reload and report.
    struct Written
    {
        QList<ResourceKey> keys;
        QString error;
        QString summary;
    };

    /// Requests deletion of `keys`; with `detach`, under the detach-on-delete policy, so that
    /// the controller leaves the backend resources alone.
    static Written requestDeletion(Workspace *ws, const StoreError &openError,
                                   const QList<ResourceKey> &keys, bool detach);
    /// Stores a plan's objects; the summary counts what was created, updated and unchanged.
    static Written apply(Workspace *ws, const StoreError &openError,
                         const QList<Resource> &objects);
    /// Writes the resources as multi-document YAML to `path`; returns the error, or empty.
    static QString exportResources(Workspace *ws, const StoreError &openError,
                                   const QList<ResourceKey> &keys, const QString &path,
                                   const KindRegistry &kinds);
    /// What an export for Azure Service Operator or AWS Controllers for Kubernetes did.
    struct InteropExported
    {
        QString error;       ///< the workspace or the file could not be used; nothing written
        QStringList missing; ///< fields the target needs, each with how to give it; nothing written
        QStringList dropped; ///< resources with no counterpart, each with the reason
        QStringList notes;   ///< what is not carried over (credentials, endpoints)
        int documents = 0;   ///< documents written
    };
    enum class InteropTarget { Aso, Ack, Kcc };
    /// Writes the documents `converge export --for aso|ack` writes for `keys` (everything
    /// when empty), byte for byte, to `path`; writes nothing when a field is missing. `aso`
    /// holds what the command line's flags give (the window's answers for each account).
    static InteropExported exportFor(Workspace *ws, const StoreError &openError,
                                     const QList<ResourceKey> &keys, InteropTarget target,
                                     const QString &path, const AsoExporter::Options &aso = {});
    /// The resources of `keys` (everything when empty) as stored; empty when none can be read.
    static QList<Resource> resourcesOf(Workspace *ws, const QList<ResourceKey> &keys);
    /// Writes every stored event that the log's filters let through to `path` (CSV, or JSON
    /// when it ends in .json); returns the error, or empty.
    static QString exportLog(Workspace *ws, const StoreError &openError, const QString &path,
                             std::optional<Event::Type> type, const QString &text);
    /// The names in the workspace per kind: owners to offer, names to avoid.
    static QHash<QString, QStringList> namesByKind(const Workspace *ws, const QStringList &kinds);
};

} // namespace converge
