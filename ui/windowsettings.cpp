// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "windowsettings.h"

#include <QApplication>
#include <QPalette>
#include <QSettings>
#include <QStyle>
#include <QStyleFactory>

namespace converge {

namespace {

// The style the platform chose, remembered on the application object before the first switch
// so that "System" can go back to it.
const char *const platformStyleProperty = "converge_platformStyle";

QPalette darkPalette()
{
    QPalette p;
    const QColor window(45, 45, 48);
    const QColor base(30, 30, 32);
    const QColor text(230, 230, 230);
    const QColor disabled(128, 128, 128);
    const QColor highlight(42, 130, 218);
    p.setColor(QPalette::Window, window);
    p.setColor(QPalette::WindowText, text);
    p.setColor(QPalette::Base, base);
    p.setColor(QPalette::AlternateBase, window);
    p.setColor(QPalette::ToolTipBase, base);
    p.setColor(QPalette::ToolTipText, text);
    p.setColor(QPalette::PlaceholderText, disabled);
    p.setColor(QPalette::Text, text);
    p.setColor(QPalette::Button, window);
    p.setColor(QPalette::ButtonText, text);
    p.setColor(QPalette::BrightText, Qt::red);
    p.setColor(QPalette::Link, highlight.lighter(130));
    p.setColor(QPalette::Highlight, highlight);
    p.setColor(QPalette::HighlightedText, Qt::white);
    p.setColor(QPalette::Light, window.lighter(150));
    p.setColor(QPalette::Mid, window.lighter(120));
    p.setColor(QPalette::Dark, base.darker(150));
    p.setColor(QPalette::Shadow, Qt::black);
    for (const auto role : {QPalette::WindowText, QPalette::Text, QPalette::ButtonText})
        p.setColor(QPalette::Disabled, role, disabled);
    p.setColor(QPalette::Disabled, QPalette::Highlight, window.lighter(130));
    return p;
}

} // namespace

WindowSettings WindowSettings::load(const QSettings &settings)
{
    WindowSettings s;
    s.workers = std::clamp(settings.value(QStringLiteral("Settings/workers"), s.workers).toInt(),
                           minWorkers, maxWorkers);
    s.resyncMinutes = std::clamp(
        settings.value(QStringLiteral("Settings/resyncMinutes"), s.resyncMinutes).toInt(),
        minResyncMinutes, maxResyncMinutes);
    s.theme = themeFromName(settings.value(QStringLiteral("Settings/theme")).toString());
    s.confirmDelete =
        settings.value(QStringLiteral("Settings/confirmDelete"), s.confirmDelete).toBool();
    s.askBeforeLeavingEdits =
        settings.value(QStringLiteral("Settings/askBeforeLeavingEdits"), s.askBeforeLeavingEdits)
            .toBool();
    return s;
}

void WindowSettings::save(QSettings &settings) const
{
    settings.setValue(QStringLiteral("Settings/workers"), workers);
    settings.setValue(QStringLiteral("Settings/resyncMinutes"), resyncMinutes);
    settings.setValue(QStringLiteral("Settings/theme"), themeName(theme));
    settings.setValue(QStringLiteral("Settings/confirmDelete"), confirmDelete);
    settings.setValue(QStringLiteral("Settings/askBeforeLeavingEdits"), askBeforeLeavingEdits);
}

QString WindowSettings::themeName(Theme theme)
{
    switch (theme) {
    case Theme::Light:
        return QStringLiteral("light");
    case Theme::Dark:
        return QStringLiteral("dark");
    case Theme::System:
        break;
    }
    return QStringLiteral("system");
}

WindowSettings::Theme WindowSettings::themeFromName(const QString &name)
{
    if (name == QLatin1String("light"))
        return Theme::Light;
    if (name == QLatin1String("dark"))
        return Theme::Dark;
    return Theme::System;
}

void WindowSettings::applyTheme(Theme theme)
{
    auto *app = qobject_cast<QApplication *>(QCoreApplication::instance());
    if (!app)
        return;
    if (!app->property(platformStyleProperty).isValid())
        app->setProperty(platformStyleProperty, QApplication::style()->name());
    const QString wanted = theme == Theme::System ? app->property(platformStyleProperty).toString()
                                                  : QStringLiteral("fusion");
    if (QApplication::style()->name().compare(wanted, Qt::CaseInsensitive) != 0) {
        if (QStyle *style = QStyleFactory::create(wanted))
            QApplication::setStyle(style);
    }
    switch (theme) {
    case Theme::Dark:
        QApplication::setPalette(darkPalette());
        break;
    case Theme::Light:
        QApplication::setPalette(QApplication::style()->standardPalette());
        break;
    case Theme::System:
        // An empty palette resolves against the platform theme's.
        QApplication::setPalette(QPalette());
        break;
    }
}

} // namespace converge
