// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "commandcontext.h"

#include "command.h"
#include "console.h"
#include "manifestreader.h"
#include "services.h"
#include "workspace.h"

#include <QSet>

#include <variant>

namespace converge {

CommandContext::CommandContext(Services &services, Console &console, const QString &workspacePath)
    : m_services(services)
    , m_console(console)
    , m_workspacePath(workspacePath)
    , m_resolver(services.kinds())
{}

std::unique_ptr<Workspace> CommandContext::openWorkspace(int *exitCode)
{
    StoreError error;
    std::unique_ptr<Workspace> ws = Workspace::open(m_workspacePath, &error);
    if (!ws) {
        m_console.error(
            QStringLiteral("cannot open the workspace %1: %2").arg(m_workspacePath, error.message));
        const bool userError = error.code == StoreError::Code::NotAWorkspace ||
                               error.code == StoreError::Code::NewerVersion;
        *exitCode = userError ? ExitUsage : ExitFailed;
    }
    return ws;
}

bool CommandContext::resolveKeys(const QStringList &arguments, QList<ResourceKey> *keys,
                                 int *exitCode)
{
    for (const QString &argument : arguments) {
        QString error;
        const std::optional<ResourceKey> key = m_resolver.resolveKey(argument, &error);
        if (!key) {
            m_console.error(error);
            *exitCode = ExitUsage;
            return false;
        }
        if (!keys->contains(*key))
            keys->append(*key);
    }
    return true;
}

bool CommandContext::keysFromManifests(const QStringList &paths, QList<ResourceKey> *keys,
                                       int *exitCode)
{
    const ManifestReader reader(m_services.kinds());
    const ManifestReader::Result read = reader.readPaths(paths);
    if (!read.ok()) {
        for (const ManifestError &error : read.errors)
            m_console.err(error.toString() + QLatin1Char('\n'));
        *exitCode = ExitUsage;
        return false;
    }
    for (const ManifestObject &object : read.objects) {
        if (!keys->contains(object.resource.key()))
            keys->append(object.resource.key());
    }
    return true;
}

bool CommandContext::selectResources(const Workspace &workspace, const QStringList &arguments,
                                     QList<Resource> *resources, bool *single, int *exitCode)
{
    // Resolve every argument first: a typo changes nothing and prints nothing else.
    QList<std::variant<QString, ResourceKey>> wanted;
    for (const QString &argument : arguments) {
        QString error;
        if (argument.contains(QLatin1Char('/'))) {
            const std::optional<ResourceKey> key = m_resolver.resolveKey(argument, &error);
            if (!key) {
                m_console.error(error);
                *exitCode = ExitUsage;
                return false;
            }
            wanted.append(*key);
        } else {
            const std::optional<QString> kind = m_resolver.resolve(argument, &error);
            if (!kind) {
                m_console.error(error);
                *exitCode = ExitUsage;
                return false;
            }
            wanted.append(*kind);
        }
    }
    *single = wanted.size() == 1 && std::holds_alternative<ResourceKey>(wanted.constFirst());

    QSet<ResourceKey> seen;
    auto add = [&](const Resource &r) {
        if (!seen.contains(r.key())) {
            seen.insert(r.key());
            resources->append(r);
        }
    };
    // A read that failed is not an empty workspace: say so and stop.
    StoreError readError;
    auto failed = [&] {
        if (!readError.isError())
            return false;
        m_console.error(readError.message);
        *exitCode = ExitFailed;
        return true;
    };
    if (wanted.isEmpty()) {
        for (const Resource &r : workspace.list({}, &readError))
            add(r);
        if (failed())
            return false;
    }
    for (const auto &item : std::as_const(wanted)) {
        if (const QString *kind = std::get_if<QString>(&item)) {
            for (const Resource &r : workspace.list(*kind, &readError))
                add(r);
            if (failed())
                return false;
            continue;
        }
        const ResourceKey &key = std::get<ResourceKey>(item);
        const std::optional<Resource> r = workspace.get(key, &readError);
        if (failed())
            return false;
        if (r) {
            add(*r);
        } else {
            m_console.error(QStringLiteral("%1 not found").arg(KindResolver::display(key)));
            *exitCode = ExitFailed;
        }
    }
    return true;
}

bool CommandContext::selectDiscovered(const Workspace &workspace, const QStringList &arguments,
                                      QList<DiscoveredResource> *found, bool reportMissing,
                                      int *exitCode)
{
    QList<std::pair<QString, QString>> wanted; // kind, backend name (empty: all of the kind)
    for (const QString &argument : arguments) {
        QString error;
        const QString kindText = argument.section(QLatin1Char('/'), 0, 0);
        const std::optional<QString> kind = m_resolver.resolve(kindText, &error);
        if (!kind) {
            m_console.error(error);
            *exitCode = ExitUsage;
            return false;
        }
        wanted.append({*kind, argument.section(QLatin1Char('/'), 1)});
    }
    const QList<DiscoveredResource> all = workspace.discovered();
    if (wanted.isEmpty()) {
        *found = all;
        return true;
    }
    for (const auto &[kind, name] : std::as_const(wanted)) {
        bool any = false;
        for (const DiscoveredResource &item : all) {
            if (item.kind == kind && (name.isEmpty() || item.name == name) &&
                !found->contains(item)) {
                found->append(item);
                any = true;
            }
        }
        if (!any && !name.isEmpty() && reportMissing) {
            m_console.error(QStringLiteral("%1 not found among the unmanaged resources")
                                .arg(KindResolver::display({kind, name})));
            *exitCode = ExitFailed;
        }
    }
    return true;
}

QDateTime CommandContext::now() const
{
    return m_services.clock().now();
}

} // namespace converge
