// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include <QString>

class QSettings;

namespace converge {

/// The user's preferences, as the settings dialog edits them and app/ reads them at start:
/// stored in the application's QSettings under `Settings/`. Values out of range read as the
/// nearest allowed one.
struct WindowSettings
{
    enum class Theme { System, Light, Dark };

    static constexpr int minWorkers = 1;
    static constexpr int maxWorkers = 64;
    static constexpr int minResyncMinutes = 1;
    static constexpr int maxResyncMinutes = 24 * 60;

    int workers = 8;        ///< the controller's worker threads; used at the next start
    int resyncMinutes = 10; ///< the controller's resync period; used at the next start
    Theme theme = Theme::System;
    bool confirmDelete = true; ///< Delete asks first (delete or detach)
    /// Leaving a resource whose spec has unsaved edits asks first (else they stay as a draft)
    bool askBeforeLeavingEdits = true;

    static WindowSettings load(const QSettings &settings);
    void save(QSettings &settings) const;

    static QString themeName(Theme theme); ///< "system", "light", "dark": as stored
    static Theme themeFromName(const QString &name);

    /// Applies `theme` to the running application at once: the platform's style and palette for
    /// System, Fusion with a light or dark palette otherwise. Needs a QApplication.
    static void applyTheme(Theme theme);

    friend bool operator==(const WindowSettings &, const WindowSettings &) = default;
};

} // namespace converge
