// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
//
// Qt's messages reach the log file in the state folder with their category, and the file stays
// bounded.
#include "logfile.h"

#include <QFile>
#include <QFileInfo>
#include <QLoggingCategory>
#include <QTemporaryDir>
#include <QTest>

using namespace converge;

namespace {
Q_LOGGING_CATEGORY(lcTest, "converge.test")
}

class tst_LogFile final : public QObject
{
    Q_OBJECT

private slots:
    void messagesReachTheFileWithTheirCategory()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString path = dir.filePath(QStringLiteral("state/converge.log"));
        {
            LogFile log(path);
            QVERIFY(log.isOpen());
            qCWarning(lcTest) << "the store is read-only";
        }
        qCWarning(lcTest) << "after the log file is gone";
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QByteArray text = file.readAll();
        QVERIFY2(text.contains("warning converge.test: the store is read-only"), text.constData());
        QVERIFY(!text.contains("after the log file is gone"));
    }

    void theFileIsBounded()
    {
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString path = dir.filePath(QStringLiteral("converge.log"));
        const qint64 max = 4096;
        {
            LogFile log(path, max);
            for (int i = 0; i < 500; ++i)
                qCWarning(lcTest) << "line" << i << QString(40, QLatin1Char('x'));
        }
        QVERIFY(QFile::exists(path + QStringLiteral(".1")));
        QVERIFY(QFileInfo(path).size() <= max + 200);
        QVERIFY(QFileInfo(path + QStringLiteral(".1")).size() <= max + 200);
        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QVERIFY(file.readAll().contains("line 499"));
    }
};

QTEST_GUILESS_MAIN(tst_LogFile)
#include "tst_logfile.moc"
