// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include "kindresolver.h"
#include "resource.h"
#include "resourcekey.h"
#include "workspacetypes.h"

#include <QDateTime>
#include <QList>
#include <QString>
#include <QStringList>

#include <memory>

namespace converge {

class Console;
class Services;
class Workspace;

/// What a command works with: the services, the console, the workspace's path, and helpers that
/// report their failures the same way in every command.
class CommandContext final
{
public:
    /// None of the references is owned.
    CommandContext(Services &services, Console &console, const QString &workspacePath);
    Q_DISABLE_COPY_MOVE(CommandContext)

    Services &services() { return m_services; }
    Console &console() { return m_console; }
    const KindResolver &kinds() const { return m_resolver; }
    QString workspacePath() const { return m_workspacePath; }

    /// Opens (or creates) the workspace; on failure prints why, sets `exitCode` (ExitUsage for
    /// a file that is not a workspace or is too new, else ExitFailed) and returns null.
    std::unique_ptr<Workspace> openWorkspace(int *exitCode);

    /// Resolves KIND/NAME arguments; on the first bad one prints why, sets `exitCode` to
    /// ExitUsage and returns false. Duplicates are dropped; the order is kept.
    bool resolveKeys(const QStringList &arguments, QList<ResourceKey> *keys, int *exitCode);

    /// Keys of the objects in manifests (`-f`), read and validated like apply does. On an
    /// invalid manifest prints every error and sets `exitCode` to ExitUsage.
    bool keysFromManifests(const QStringList &paths, QList<ResourceKey> *keys, int *exitCode);

    /// The resources that `get` and `export` arguments name: none for all, KIND for all of a
    /// kind, KIND/NAME for one; in argument order, each once. An unknown kind prints why, sets
    /// `exitCode` to ExitUsage and returns false; a missing KIND/NAME prints "not found", sets
    /// `exitCode` to ExitFailed and goes on. `single` says whether exactly one KIND/NAME was
    /// asked for.
    bool selectResources(const Workspace &workspace, const QStringList &arguments,
                         QList<Resource> *resources, bool *single, int *exitCode);

    /// The discovered (unmanaged) backend resources that the same arguments name, KIND/NAME
    /// by their backend name (several when accounts hold the same name); nothing found for a
    /// KIND/NAME prints "not found" and sets `exitCode` to ExitFailed when `reportMissing`.
    bool selectDiscovered(const Workspace &workspace, const QStringList &arguments,
                          QList<DiscoveredResource> *found, bool reportMissing, int *exitCode);

    QDateTime now() const;

private:
    Services &m_services;
    Console &m_console;
    QString m_workspacePath;
    KindResolver m_resolver;
};

} // namespace converge
