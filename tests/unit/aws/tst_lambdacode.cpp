// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
//
// LambdaCode: a function's `code: {file: PATH}` as the package sent and its CodeSha256: a .zip
// as it is, a folder zipped reproducibly, anything else or anything too large refused saying
// what to do.
#include "lambdacode.h"
#include "zipwriter.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace converge;

namespace {

void lambdaCodeWrite(const QString &path, const QByteArray &data)
{
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly));
    file.write(data);
}

} // namespace

class tst_LambdaCode : public QObject
{
    Q_OBJECT

private slots:
    void aFolderIsZippedAndHashed()
    {
        QTemporaryDir dir;
        lambdaCodeWrite(dir.filePath(QStringLiteral("app.py")), "def handler(e, c):\n    pass\n");
        const auto package = LambdaCode::read(dir.path());
        QVERIFY2(package.error.isEmpty(), qPrintable(package.error));
        QCOMPARE(package.zip, ZipWriter::writeFolder(dir.path(), 0).zip);
        // CodeSha256: the archive's SHA-256, base64, as Lambda answers it.
        QCOMPARE(package.sha256,
                 QString::fromLatin1(
                     QCryptographicHash::hash(package.zip, QCryptographicHash::Sha256).toBase64()));
        QCOMPARE(LambdaCode::read(dir.path()).sha256, package.sha256);
    }

    void aZipIsSentAsItIs()
    {
        QTemporaryDir dir;
        const QByteArray zip = ZipWriter::write({{QStringLiteral("a.py"), "x", false}});
        lambdaCodeWrite(dir.filePath(QStringLiteral("code.zip")), zip);
        const auto package = LambdaCode::read(dir.filePath(QStringLiteral("code.zip")));
        QVERIFY2(package.error.isEmpty(), qPrintable(package.error));
        QCOMPARE(package.zip, zip);
        QCOMPARE(package.sha256, LambdaCode::sha256(zip));
    }

    void whatCannotBeSentIsRefused()
    {
        QTemporaryDir dir;
        lambdaCodeWrite(dir.filePath(QStringLiteral("app.py")), "print(1)\n");
        const auto notZip = LambdaCode::read(dir.filePath(QStringLiteral("app.py")));
        QVERIFY(notZip.zip.isEmpty());
        QVERIFY2(notZip.error.contains(QLatin1String("not a .zip")), qPrintable(notZip.error));
        QVERIFY(LambdaCode::read(dir.filePath(QStringLiteral("missing.zip")))
                    .error.contains(QLatin1String("does not exist")));

        // Over the limit (a small one here; Lambda's is 50 MB): S3 is named as the way.
        const QByteArray zip =
            ZipWriter::write({{QStringLiteral("a.py"), QByteArray(4000, 'x'), false}});
        lambdaCodeWrite(dir.filePath(QStringLiteral("big.zip")), zip);
        const auto big = LambdaCode::read(dir.filePath(QStringLiteral("big.zip")), 10);
        QVERIFY(big.zip.isEmpty());
        QVERIFY2(big.error.contains(QLatin1String("{s3Bucket, s3Key}")), qPrintable(big.error));
        const auto bigFolder = LambdaCode::read(dir.path(), 10);
        QVERIFY(bigFolder.zip.isEmpty());
        QVERIFY2(bigFolder.error.contains(QLatin1String("{s3Bucket, s3Key}")),
                 qPrintable(bigFolder.error));
        QCOMPARE(LambdaCode::directUploadLimit, qint64(52428800));
    }
};

QTEST_GUILESS_MAIN(tst_LambdaCode)
#include "tst_lambdacode.moc"
