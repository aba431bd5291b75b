// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include <QColor>
#include <QHash>
#include <QIcon>
#include <QString>

namespace converge {

/// The window's line icons (SVG under :/icons/kinds/ and :/icons/actions/), drawn in the
/// palette's text colour: their strokes say `currentColor`, which the SVG icon engine does not
/// know, so the files are coloured here and rendered once per colour. A palette change (the
/// theme setting, the desktop's dark mode) gives new icons at the next call. A missing file
/// gives the unknown-kind icon, never a crash. GUI thread only.
class ThemedIcons final
{
public:
    /// The icon of a resource kind ("BlobContainer" → :/icons/kinds/blobcontainer.svg).
    QIcon kind(const QString &kindName) const;
    /// A browsed virtual folder.
    QIcon folder() const;
    /// A toolbar action's ("reconcile" → :/icons/actions/reconcile.svg).
    QIcon action(const QString &name) const;

    /// The SVG text of `path` with currentColor replaced by `color`; empty when missing.
    static QByteArray colored(const QString &path, const QColor &color);

private:
    QIcon load(const QString &path) const;

    mutable QColor m_color;
    mutable QHash<QString, QIcon> m_cache;
};

} // namespace converge
