// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
//
// ZipWriter: archives a real reader opens (Python's zipfile, which checks every CRC), the same
// bytes for the same tree whatever the order, times or machine, and folders over the limit
// refused.
#include "zipwriter.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QRandomGenerator>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

using namespace converge;

namespace {

void zipTestWrite(const QString &path, const QByteArray &data)
{
    QDir().mkpath(QFileInfo(path).path());
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(data);
}

} // namespace

class tst_ZipWriter : public QObject
{
    Q_OBJECT

private slots:
    void aRealReaderOpensIt()
    {
        const QString python = QStandardPaths::findExecutable(QStringLiteral("python3"));
        if (python.isEmpty())
            QSKIP("skipped: python3 not found (the archive is checked by its zipfile module)");
        QByteArray big;
        for (int i = 0; i < 2000; ++i)
            big +=
                "def handler(event, context):\n    return {'n': " + QByteArray::number(i) + "}\n";
        const QByteArray zip = ZipWriter::write({{QStringLiteral("pkg/util.py"), big, false},
                                                 {QStringLiteral("app.py"), "print('hi')\n", false},
                                                 {QStringLiteral("bootstrap"), "#!/bin/sh\n", true},
                                                 {QStringLiteral("empty.txt"), {}, false},
                                                 {QStringLiteral("n\u00e4me.txt"), "x", false}});
        QVERIFY(zip.size() < big.size() / 4); // deflated
        QTemporaryDir dir;
        zipTestWrite(dir.filePath(QStringLiteral("a.zip")), zip);
        QProcess p;
        p.start(
            python,
            {QStringLiteral("-c"),
             QStringLiteral(
                 "import sys, zipfile\n"
                 "z = zipfile.ZipFile(sys.argv[1])\n"
                 "assert z.testzip() is None\n"
                 "for i in z.infolist():\n"
                 "    print(i.filename, oct(i.external_attr >> 16), i.date_time, i.compress_type,\n"
                 "          len(z.read(i)))\n"),
             dir.filePath(QStringLiteral("a.zip"))});
        QVERIFY(p.waitForFinished(30000));
        QVERIFY2(p.exitCode() == 0, p.readAllStandardError().constData());
        const QString out = QString::fromUtf8(p.readAllStandardOutput());
        QCOMPARE(out.split(QLatin1Char('\n'), Qt::SkipEmptyParts),
                 (QStringList{QStringLiteral("app.py 0o100644 (1980, 1, 1, 0, 0, 0) 8 12"),
                              QStringLiteral("bootstrap 0o100755 (1980, 1, 1, 0, 0, 0) 8 10"),
                              QStringLiteral("empty.txt 0o100644 (1980, 1, 1, 0, 0, 0) 0 0"),
                              QStringLiteral("n\u00e4me.txt 0o100644 (1980, 1, 1, 0, 0, 0) 8 1"),
                              QStringLiteral("pkg/util.py 0o100644 (1980, 1, 1, 0, 0, 0) 8 %1")
                                  .arg(big.size())}));
    }

    void theSameTreeGivesTheSameBytes()
    {
        QTemporaryDir a;
        QTemporaryDir b;
        // Written in another order, at other times: the archive does not see either.
        zipTestWrite(a.filePath(QStringLiteral("app.py")), "x = 1\n");
        zipTestWrite(a.filePath(QStringLiteral("lib/b.py")), "y = 2\n");
        zipTestWrite(a.filePath(QStringLiteral(".hidden")), "h");
        QTest::qWait(1100);
        zipTestWrite(b.filePath(QStringLiteral(".hidden")), "h");
        zipTestWrite(b.filePath(QStringLiteral("lib/b.py")), "y = 2\n");
        zipTestWrite(b.filePath(QStringLiteral("app.py")), "x = 1\n");
        const auto first = ZipWriter::writeFolder(a.path(), 1 << 20);
        const auto second = ZipWriter::writeFolder(b.path(), 1 << 20);
        QVERIFY2(first.error.isEmpty(), qPrintable(first.error));
        QCOMPARE(first.zip, second.zip);
        QVERIFY(first.zip.contains("lib/b.py"));
        QVERIFY(first.zip.contains(".hidden"));
        // A change of content, or of the executable bit, is another archive.
        QFile::setPermissions(b.filePath(QStringLiteral("app.py")),
                              QFile::permissions(b.filePath(QStringLiteral("app.py"))) |
                                  QFileDevice::ExeOwner);
        QVERIFY(ZipWriter::writeFolder(b.path(), 1 << 20).zip != first.zip);
        // The archive's SHA-256 is what Lambda calls CodeSha256: fixed by the bytes alone.
        QCOMPARE(QCryptographicHash::hash(first.zip, QCryptographicHash::Sha256),
                 QCryptographicHash::hash(second.zip, QCryptographicHash::Sha256));
    }

    void overTheLimitIsRefused()
    {
        QTemporaryDir dir;
        QByteArray noise(300 * 1024, Qt::Uninitialized);
        QRandomGenerator rng(36);
        for (char &c : noise)
            c = char(rng.bounded(256));
        zipTestWrite(dir.filePath(QStringLiteral("noise.bin")), noise);
        const auto refused = ZipWriter::writeFolder(dir.path(), 256 * 1024);
        QVERIFY(refused.zip.isEmpty());
        QVERIFY2(refused.error.contains(QStringLiteral("more than 262144")),
                 qPrintable(refused.error));
        QVERIFY(ZipWriter::writeFolder(dir.path(), 1 << 20).error.isEmpty());
        QVERIFY(
            !ZipWriter::writeFolder(dir.filePath(QStringLiteral("missing")), 0).error.isEmpty());
        QTemporaryDir empty;
        QVERIFY(ZipWriter::writeFolder(empty.path(), 0).error.contains(QStringLiteral("no files")));
    }
};

QTEST_GUILESS_MAIN(tst_ZipWriter)
#include "tst_zipwriter.moc"
