// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
//
// The preferences (through the dialog and a QSettings in a temporary file) and the recent
// workspaces list.
#include "settingsdialog.h"

#include "recentworkspaces.h"
#include "windowsettings.h"

#include <QApplication>
#include <QCheckBox>
#include <QComboBox>
#include <QFile>
#include <QSettings>
#include <QSpinBox>
#include <QStyle>
#include <QTemporaryDir>
#include <QTest>

using namespace converge;

namespace {

QString touch(const QTemporaryDir &dir, const QString &name)
{
    const QString path = dir.filePath(name);
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        qFatal("cannot create %s", qPrintable(path));
    return path;
}

} // namespace

class tst_SettingsDialog final : public QObject
{
    Q_OBJECT

private slots:
    void defaults()
    {
        QTemporaryDir dir;
        const QSettings settings(dir.filePath(QStringLiteral("s.ini")), QSettings::IniFormat);
        const WindowSettings s = WindowSettings::load(settings);
        QCOMPARE(s.workers, 8);
        QCOMPARE(s.resyncMinutes, 10);
        QCOMPARE(s.theme, WindowSettings::Theme::System);
        QVERIFY(s.confirmDelete);
    }

    // Edited in the dialog, saved, read back from the file by another QSettings.
    void roundTripThroughDialog()
    {
        QTemporaryDir dir;
        const QString file = dir.filePath(QStringLiteral("s.ini"));
        SettingsDialog dialog(WindowSettings{});
        dialog.findChild<QSpinBox *>(QStringLiteral("workersSpin"))->setValue(3);
        dialog.findChild<QSpinBox *>(QStringLiteral("resyncSpin"))->setValue(45);
        auto *theme = dialog.findChild<QComboBox *>(QStringLiteral("themeCombo"));
        theme->setCurrentIndex(theme->findData(int(WindowSettings::Theme::Dark)));
        dialog.findChild<QCheckBox *>(QStringLiteral("confirmDeleteCheck"))->setChecked(false);
        const WindowSettings chosen = dialog.settings();
        {
            QSettings settings(file, QSettings::IniFormat);
            chosen.save(settings);
        }
        const QSettings again(file, QSettings::IniFormat);
        const WindowSettings read = WindowSettings::load(again);
        QCOMPARE(read.workers, 3);
        QCOMPARE(read.resyncMinutes, 45);
        QCOMPARE(read.theme, WindowSettings::Theme::Dark);
        QCOMPARE(read.confirmDelete, false);
        QVERIFY(read == chosen);

        // And the dialog shows what it is given.
        SettingsDialog shown(read);
        QCOMPARE(shown.settings(), read);
        QVERIFY(shown.findChild<QObject *>(QStringLiteral("restartNote")));
    }

    void outOfRangeIsClamped_data()
    {
        QTest::addColumn<int>("workers");
        QTest::addColumn<int>("expected");
        QTest::newRow("zero") << 0 << 1;
        QTest::newRow("too many") << 500 << 64;
        QTest::newRow("inside") << 16 << 16;
    }

    void outOfRangeIsClamped()
    {
        QFETCH(int, workers);
        QFETCH(int, expected);
        QTemporaryDir dir;
        QSettings settings(dir.filePath(QStringLiteral("s.ini")), QSettings::IniFormat);
        settings.setValue(QStringLiteral("Settings/workers"), workers);
        settings.setValue(QStringLiteral("Settings/theme"), QStringLiteral("purple"));
        const WindowSettings s = WindowSettings::load(settings);
        QCOMPARE(s.workers, expected);
        QCOMPARE(s.theme, WindowSettings::Theme::System);
    }

    // Dark is applied at once (Fusion, a dark window colour); System goes back to the style
    // the platform chose.
    void themeAppliedAtOnce()
    {
        const QString platform = QApplication::style()->name();
        WindowSettings::applyTheme(WindowSettings::Theme::Dark);
        QCOMPARE(QApplication::style()->name().toLower(), QStringLiteral("fusion"));
        QVERIFY(QApplication::palette().color(QPalette::Window).lightness() < 100);
        WindowSettings::applyTheme(WindowSettings::Theme::Light);
        QVERIFY(QApplication::palette().color(QPalette::Window).lightness() > 150);
        WindowSettings::applyTheme(WindowSettings::Theme::System);
        QCOMPARE(QApplication::style()->name(), platform);
    }

    void recentOrderDedupeCap()
    {
        QTemporaryDir dir;
        QSettings settings(dir.filePath(QStringLiteral("s.ini")), QSettings::IniFormat);
        RecentWorkspaces recent(settings);
        QStringList files;
        for (int i = 0; i < 10; ++i)
            files << touch(dir, QStringLiteral("w%1.converge").arg(i));
        recent.add(files.at(0));
        recent.add(files.at(1));
        QCOMPARE(recent.paths(), (QStringList{files.at(1), files.at(0)}));
        // Again, spelled differently: moved to the front, not listed twice.
        recent.add(dir.path() + QStringLiteral("/./w0.converge"));
        QCOMPARE(recent.paths(), (QStringList{files.at(0), files.at(1)}));
        for (const QString &f : files)
            recent.add(f);
        const QStringList paths = recent.paths();
        QCOMPARE(paths.size(), RecentWorkspaces::maxCount);
        QCOMPARE(paths.constFirst(), files.at(9));
        QCOMPARE(paths.constLast(), files.at(2));
    }

    void recentDropsMissingFiles()
    {
        QTemporaryDir dir;
        const QString file = dir.filePath(QStringLiteral("s.ini"));
        const QString a = touch(dir, QStringLiteral("a.converge"));
        const QString b = touch(dir, QStringLiteral("b.converge"));
        {
            QSettings settings(file, QSettings::IniFormat);
            RecentWorkspaces recent(settings);
            recent.add(a);
            recent.add(b);
            QVERIFY(QFile::remove(a));
            QCOMPARE(recent.paths(a), (QStringList{b, a})); // a window's own, not written yet
            QCOMPARE(recent.paths(), QStringList{b});
        }
        // Dropped from the settings too, not only from what was shown.
        QSettings settings(file, QSettings::IniFormat);
        QCOMPARE(settings.value(QStringLiteral("Workspaces/recent")).toStringList(),
                 QStringList{b});
        RecentWorkspaces(settings).clear();
        QVERIFY(RecentWorkspaces(settings).paths().isEmpty());
    }
};

QTEST_MAIN(tst_SettingsDialog)
#include "tst_settingsdialog.moc"
