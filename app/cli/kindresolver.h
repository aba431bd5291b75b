// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include "resourcekey.h"

#include <QString>

#include <optional>

namespace converge {

class KindRegistry;

/// Reads kinds and KIND/NAME arguments the way kubectl users type them: case-insensitive, singular
/// or plural (`blobcontainer`, `blobcontainers`, `BlobContainer`), optionally with the API group
/// (`blobcontainers.azure.converge.dev`).
class KindResolver final
{
public:
    /// `registry` must outlive the resolver.
    explicit KindResolver(const KindRegistry &registry);

    /// The kind's canonical name (`BlobContainer`), or nullopt with `error` saying why, with a
    /// did-you-mean when a kind is near.
    std::optional<QString> resolve(const QString &text, QString *error = nullptr) const;
    /// `KIND/NAME` with the kind resolved; nullopt when there is no '/', either side is empty or
    /// the kind is unknown.
    std::optional<ResourceKey> resolveKey(const QString &text, QString *error = nullptr) const;

    /// How the CLI names a resource: the lower-case kind, '/', the name
    /// (`blobcontainer/invoices`), which resolveKey() reads back.
    static QString display(const ResourceKey &key);

private:
    const KindRegistry &m_registry;
};

} // namespace converge
