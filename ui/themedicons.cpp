// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "themedicons.h"

#include <QFile>
#include <QGuiApplication>
#include <QPainter>
#include <QPalette>
#include <QPixmap>
#include <QSvgRenderer>

namespace converge {

QByteArray ThemedIcons::colored(const QString &path, const QColor &color)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    QByteArray svg = file.readAll();
    svg.replace("currentColor", color.name(QColor::HexRgb).toLatin1());
    return svg;
}

QIcon ThemedIcons::load(const QString &path) const
{
    const QColor color = QGuiApplication::palette().color(QPalette::Active, QPalette::Text);
    if (color != m_color) {
        m_cache.clear();
        m_color = color;
    }
    if (const auto it = m_cache.constFind(path); it != m_cache.cend())
        return *it;
    QByteArray svg = colored(path, color);
    if (svg.isEmpty())
        svg = colored(QStringLiteral(":/icons/kinds/unknown.svg"), color);
    QIcon icon;
    QSvgRenderer renderer(svg);
    if (renderer.isValid()) {
        // Pixmaps at the sizes views ask for, and twice them for high-density screens.
        for (const int size : {16, 20, 24, 32, 48, 64}) {
            QPixmap pixmap(size, size);
            pixmap.fill(Qt::transparent);
            QPainter painter(&pixmap);
            renderer.render(&painter);
            painter.end();
            icon.addPixmap(pixmap);
        }
    }
    m_cache.insert(path, icon);
    return icon;
}

QIcon ThemedIcons::kind(const QString &kindName) const
{
    return load(QStringLiteral(":/icons/kinds/%1.svg").arg(kindName.toLower()));
}

QIcon ThemedIcons::folder() const
{
    return load(QStringLiteral(":/icons/kinds/folder.svg"));
}

QIcon ThemedIcons::action(const QString &name) const
{
    return load(QStringLiteral(":/icons/actions/%1.svg").arg(name));
}

} // namespace converge
