// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "kindresolver.h"

#include "kindregistry.h"

namespace converge {

KindResolver::KindResolver(const KindRegistry &registry)
    : m_registry(registry)
{}

std::optional<QString> KindResolver::resolve(const QString &text, QString *error) const
{
    QString word = text;
    QString group;
    if (const qsizetype dot = text.indexOf(QLatin1Char('.')); dot > 0) {
        word = text.left(dot);
        group = text.mid(dot + 1);
    }
    const QString lower = word.toLower();
    if (!lower.isEmpty()) {
        for (const QString &name : m_registry.names()) {
            const QString n = name.toLower();
            if (lower != n && lower != n + QLatin1Char('s') && lower != n + QLatin1String("es"))
                continue;
            const Kind *kind = m_registry.find(name);
            if (!group.isEmpty() && kind && kind->group.compare(group, Qt::CaseInsensitive) != 0)
                continue;
            return name;
        }
    }
    if (error) {
        QStringList near = m_registry.suggestions(word);
        // "blobcontainerss" is far from the singular only by its plural ending.
        if (near.isEmpty() && lower.endsWith(QLatin1Char('s')))
            near = m_registry.suggestions(word.chopped(1));
        *error = near.isEmpty() ? QStringLiteral("unknown kind \"%1\" (known kinds: %2)")
                                      .arg(text, m_registry.names().join(QStringLiteral(", ")))
                                : QStringLiteral("unknown kind \"%1\"; did you mean \"%2\"?")
                                      .arg(text, near.constFirst());
    }
    return std::nullopt;
}

std::optional<ResourceKey> KindResolver::resolveKey(const QString &text, QString *error) const
{
    const std::optional<ResourceKey> key = ResourceKey::fromString(text);
    if (!key) {
        if (error)
            *error =
                QStringLiteral("\"%1\" is not KIND/NAME (e.g. blobcontainer/invoices)").arg(text);
        return std::nullopt;
    }
    const std::optional<QString> kind = resolve(key->kind, error);
    if (!kind)
        return std::nullopt;
    return ResourceKey{*kind, key->name};
}

QString KindResolver::display(const ResourceKey &key)
{
    return key.kind.toLower() + QLatin1Char('/') + key.name;
}

} // namespace converge
