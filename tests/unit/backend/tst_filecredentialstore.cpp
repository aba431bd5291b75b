// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "filecredentialstore.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <sys/stat.h>

using namespace converge;

namespace {

using Entries = QList<QPair<QString, QString>>;

bool writeFile(const QString &path, const QByteArray &content, QFile::Permissions permissions)
{
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate))
        return false;
    file.write(content);
    file.close();
    return file.setPermissions(permissions);
}

/// The real mode bits, not Qt's view of them.
int modeOf(const QString &path)
{
    struct stat info = {};
    if (::stat(QFile::encodeName(path).constData(), &info) != 0)
        return -1;
    return int(info.st_mode & 07777);
}

constexpr QFile::Permissions ownerOnly = QFile::ReadOwner | QFile::WriteOwner;

} // namespace

class tst_FileCredentialStore final : public QObject
{
    Q_OBJECT

private slots:
    void parse_data()
    {
        QTest::addColumn<QByteArray>("content");
        QTest::addColumn<bool>("ok");
        QTest::addColumn<Entries>("entries");
        QTest::addColumn<QString>("error");

        QTest::newRow("simple") << QByteArray("a=1\nb=2\n") << true
                                << Entries{{QStringLiteral("a"), QStringLiteral("1")},
                                           {QStringLiteral("b"), QStringLiteral("2")}}
                                << QString();
        QTest::newRow("comments, blanks, CRLF, spaces, '=' in values")
            << QByteArray("# keys\r\n\r\n  devstore = Eby8==\r\nsas=sv=1&sig=x%3D\n") << true
            << Entries{{QStringLiteral("devstore"), QStringLiteral("Eby8==")},
                       {QStringLiteral("sas"), QStringLiteral("sv=1&sig=x%3D")}}
            << QString();
        QTest::newRow("empty") << QByteArray() << true << Entries{} << QString();
        QTest::newRow("no '='") << QByteArray("a=1\nEby8vdM02xNOcqFlq\n") << false << Entries{}
                                << QStringLiteral("line 2 is not name=value");
        QTest::newRow("no name") << QByteArray("=secret\n") << false << Entries{}
                                 << QStringLiteral("line 1 is not name=value");
        QTest::newRow("twice") << QByteArray("a=1\n\na=2\n") << false << Entries{}
                               << QStringLiteral("line 3 repeats the name a");
    }

    void parse()
    {
        QFETCH(QByteArray, content);
        QFETCH(bool, ok);
        QFETCH(Entries, entries);
        QFETCH(QString, error);
        Entries actual;
        QString actualError;
        QCOMPARE(FileCredentialStore::parse(content, &actual, &actualError), ok);
        if (ok)
            QCOMPARE(actual, entries);
        else
            QCOMPARE(actualError, error);
    }

    void readsFromAPrivateFile()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("secrets"));
        QVERIFY(writeFile(path, "devstore=Eby8==\naws=fakesecret\n", ownerOnly));
        FileCredentialStore store(path);
        BackendError error;
        QCOMPARE(store.read(QStringLiteral("aws"), &error),
                 std::optional<QString>(QStringLiteral("fakesecret")));
        QVERIFY(!store.read(QStringLiteral("other"), &error).has_value());
        QCOMPARE(error.category, BackendError::Category::NotFound);
        QVERIFY(error.message.contains(QStringLiteral("other")));
    }

    void refusesFilesOthersCanRead_data()
    {
        QTest::addColumn<int>("permissions");
        QTest::newRow("0640") << int(ownerOnly | QFile::ReadGroup);
        QTest::newRow("0604") << int(ownerOnly | QFile::ReadOther);
        QTest::newRow("0620") << int(ownerOnly | QFile::WriteGroup);
        QTest::newRow("0644") << int(ownerOnly | QFile::ReadGroup | QFile::ReadOther);
    }

    void refusesFilesOthersCanRead()
    {
        QFETCH(int, permissions);
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("secrets"));
        QVERIFY(writeFile(path, "aws=fakesecret\n", QFile::Permissions(permissions)));
        FileCredentialStore store(path);
        BackendError error;
        QVERIFY(!store.read(QStringLiteral("aws"), &error).has_value());
        QCOMPARE(error.category, BackendError::Category::Invalid);
        QCOMPARE(error.code, QStringLiteral("InsecureFile"));
        QVERIFY2(error.message.contains(QStringLiteral("chmod 600")), qPrintable(error.message));
        QVERIFY(!error.message.contains(QStringLiteral("fakesecret")));
        // Nor does it write into such a file.
        QVERIFY(!store.write(QStringLiteral("x"), QStringLiteral("y"), &error));
        QCOMPARE(error.code, QStringLiteral("InsecureFile"));
    }

    void readOnlyForOwnerIsFine()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("secrets"));
        QVERIFY(writeFile(path, "aws=fakesecret\n", QFile::ReadOwner));
        FileCredentialStore store(path);
        QCOMPARE(store.read(QStringLiteral("aws")),
                 std::optional<QString>(QStringLiteral("fakesecret")));
    }

    void malformedFilesNameTheLineNotTheSecret()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("secrets"));
        QVERIFY(writeFile(path, "aws=fakesecret\ntopsecretvalue\n", ownerOnly));
        FileCredentialStore store(path);
        BackendError error;
        QVERIFY(!store.read(QStringLiteral("aws"), &error).has_value());
        QCOMPARE(error.code, QStringLiteral("MalformedFile"));
        QVERIFY(error.message.contains(QStringLiteral("line 2")));
        QVERIFY(!error.message.contains(QStringLiteral("topsecretvalue")));
    }

    void writesCreateA0600File()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("secrets"));
        FileCredentialStore store(path);
        BackendError error;
        QVERIFY(!store.read(QStringLiteral("aws"), &error).has_value());
        QCOMPARE(error.category, BackendError::Category::NotFound);

        const mode_t previous = ::umask(0); // the widest umask: the store must not rely on it
        const bool written =
            store.write(QStringLiteral("aws"), QStringLiteral("fakesecret"), &error);
        ::umask(previous);
        QVERIFY2(written, qPrintable(error.message));
        QCOMPARE(modeOf(path), 0600);
        QVERIFY(store.write(QStringLiteral("devstore"), QStringLiteral("Eby8=="), &error));
        QVERIFY(store.write(QStringLiteral("aws"), QStringLiteral("newsecret"), &error));
        QCOMPARE(modeOf(path), 0600);

        QFile file(path);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QCOMPARE(file.readAll(), QByteArray("aws=newsecret\ndevstore=Eby8==\n"));
        QCOMPARE(store.read(QStringLiteral("aws")),
                 std::optional<QString>(QStringLiteral("newsecret")));

        QVERIFY(store.remove(QStringLiteral("aws"), &error));
        QVERIFY(store.remove(QStringLiteral("aws"), &error)); // already gone: fine
        QVERIFY(!store.read(QStringLiteral("aws")).has_value());
        QCOMPARE(store.read(QStringLiteral("devstore")),
                 std::optional<QString>(QStringLiteral("Eby8==")));
    }

    void refusesUnstorableValues()
    {
        QTemporaryDir dir;
        FileCredentialStore store(dir.filePath(QStringLiteral("secrets")));
        BackendError error;
        QVERIFY(!store.write(QStringLiteral("a=b"), QStringLiteral("x"), &error));
        QCOMPARE(error.code, QStringLiteral("InvalidName"));
        QVERIFY(!store.write(QStringLiteral("a"), QStringLiteral("x\ny"), &error));
        QCOMPARE(error.code, QStringLiteral("InvalidSecret"));
        QVERIFY(!QFile::exists(dir.filePath(QStringLiteral("secrets"))));
    }
};

QTEST_GUILESS_MAIN(tst_FileCredentialStore)
#include "tst_filecredentialstore.moc"
