// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "foldermemory.h"

#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QSettings>
#include <QTemporaryDir>
#include <QTest>

using namespace converge;

class tst_FolderMemory final : public QObject
{
    Q_OBJECT

private slots:
    void remembersTheFolderOfWhatWasChosen()
    {
        QTemporaryDir dir;
        QSettings settings(dir.filePath(QStringLiteral("ui.ini")), QSettings::IniFormat);
        FolderMemory folders(settings);
        QCOMPARE(folders.folder(), QDir::homePath()); // nothing chosen yet
        QVERIFY(QDir(dir.path()).mkpath(QStringLiteral("manifests")));
        const QString manifests = QDir(dir.path()).filePath(QStringLiteral("manifests"));
        folders.remember(QDir(manifests).filePath(QStringLiteral("table.yaml")));
        QCOMPARE(folders.folder(), manifests);
        // Kept with the window's settings: the next window opens there too.
        QCOMPARE(FolderMemory(settings).folder(), manifests);
        // A folder that went is no place to open in.
        QVERIFY(QDir(manifests).removeRecursively());
        QCOMPARE(folders.folder(), QDir::homePath());
    }

    void aDialogOpensThereAndRemembersItsChoice()
    {
        QTemporaryDir dir;
        QSettings settings(dir.filePath(QStringLiteral("ui.ini")), QSettings::IniFormat);
        FolderMemory folders(settings);
        folders.remember(dir.path());
        QFileDialog dialog;
        dialog.setOption(QFileDialog::DontUseNativeDialog);
        folders.follow(&dialog);
        QCOMPARE(QDir(dialog.directory()).canonicalPath(), QDir(dir.path()).canonicalPath());
        QVERIFY(QDir(dir.path()).mkpath(QStringLiteral("out")));
        const QString file =
            QDir(dir.filePath(QStringLiteral("out"))).filePath(QStringLiteral("aso.yaml"));
        Q_EMIT dialog.filesSelected({file});
        QCOMPARE(folders.folder(), dir.filePath(QStringLiteral("out")));
    }
};

QTEST_MAIN(tst_FolderMemory)
#include "tst_foldermemory.moc"
