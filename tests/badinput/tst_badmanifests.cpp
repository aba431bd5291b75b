// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT

// The corpus of broken manifests (tests/data/manifests/invalid/cli) through the real `converge
// apply`: each case exits 2, prints the message of its sibling .expected file, and leaves the
// workspace byte for byte as it was.

#include <QDir>
#include <QFile>
#include <QMap>
#include <QProcess>
#include <QProcessEnvironment>
#include <QTemporaryDir>
#include <QTest>

using namespace Qt::StringLiterals;

namespace {

struct Run
{
    int exitCode = -1;
    QByteArray err;
    QByteArray describe() const
    {
        return QByteArray("exit " + QByteArray::number(exitCode) + ", stderr:\n" + err.left(4000));
    }
};

// The file names in expected messages are relative, so the CLI runs in the corpus folder.
Run apply(const QString &workspace, const QString &file, const QString &workingDirectory)
{
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.remove(u"CONVERGE_WORKSPACE"_s);
    env.remove(u"DISPLAY"_s);
    env.insert(u"NO_COLOR"_s, u"1"_s);
    p.setProcessEnvironment(env);
    p.setWorkingDirectory(workingDirectory);
    p.start(QString::fromUtf8(CONVERGE_EXECUTABLE),
            {u"apply"_s, u"--workspace"_s, workspace, u"-f"_s, file});
    Run r;
    if (!p.waitForFinished(120000)) {
        p.kill();
        p.waitForFinished();
        return r;
    }
    r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    r.err = p.readAllStandardError();
    return r;
}

// Every file of the workspace: the SQLite file and whatever WAL or journal lies beside it.
QMap<QString, QByteArray> snapshot(const QString &dir)
{
    QMap<QString, QByteArray> files;
    const QStringList names = QDir(dir).entryList({u"w.converge*"_s}, QDir::Files);
    for (const QString &name : names) {
        QFile f(dir + u'/' + name);
        if (f.open(QIODevice::ReadOnly))
            files.insert(name, f.readAll());
    }
    return files;
}

const QByteArray validManifest = "apiVersion: azure.converge.dev/v1\n"
                                 "kind: StorageAccount\n"
                                 "metadata:\n"
                                 "  name: devstore\n"
                                 "spec:\n"
                                 "  accountName: devstoreaccount1\n"
                                 "  endpoints:\n"
                                 "    blob: http://127.0.0.1:10000/devstoreaccount1\n"
                                 "    queue: http://127.0.0.1:10001/devstoreaccount1\n"
                                 "    table: http://127.0.0.1:10002/devstoreaccount1\n"
                                 "  credential: {emulator: true}\n";

} // namespace

class tst_BadManifests final : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase();
    void corpus_data();
    void corpus();
    void hugeFile();

private:
    void checkRefused(const QString &file, const QString &directory, const QString &expected);

    QTemporaryDir m_dir;
    QString m_workspace;
    QString m_corpus;
    QMap<QString, QByteArray> m_before;
};

void tst_BadManifests::initTestCase()
{
    QVERIFY(m_dir.isValid());
    const QString data = qEnvironmentVariable("CONVERGE_TEST_DATA");
    QVERIFY2(!data.isEmpty(), "CONVERGE_TEST_DATA is not set");
    m_corpus = data + u"/manifests/invalid/cli"_s;
    QVERIFY(QDir(m_corpus).exists());

    // A workspace holding one valid resource, so that "unchanged" means something.
    QFile valid(m_dir.filePath(u"valid.yaml"_s));
    QVERIFY(valid.open(QIODevice::WriteOnly));
    valid.write(validManifest);
    valid.close();
    m_workspace = m_dir.filePath(u"w.converge"_s);
    const Run r = apply(m_workspace, valid.fileName(), m_dir.path());
    QVERIFY2(r.exitCode == 0, r.describe().constData());
    m_before = snapshot(m_dir.path());
    QVERIFY(m_before.contains(u"w.converge"_s));
    QVERIFY(m_before.value(u"w.converge"_s).size() > 0);
}

void tst_BadManifests::corpus_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QString>("expected");

    const QStringList cases = QDir(m_corpus).entryList({u"*.expected"_s}, QDir::Files, QDir::Name);
    QVERIFY2(cases.size() >= 40, "the corpus is missing");
    for (const QString &name : cases) {
        QFile f(m_corpus + u'/' + name);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QString expected = QString::fromUtf8(f.readAll()).trimmed();
        QVERIFY2(!expected.isEmpty(), qPrintable(name));
        const QString file = name.chopped(int(qstrlen(".expected")));
        QVERIFY2(QFile::exists(m_corpus + u'/' + file), qPrintable(file));
        QTest::newRow(qPrintable(file)) << file << expected;
    }
}

void tst_BadManifests::corpus()
{
    QFETCH(QString, file);
    QFETCH(QString, expected);
    checkRefused(file, m_corpus, expected);
}

// 100 MB is made here rather than kept in git; the reader refuses it by its size.
void tst_BadManifests::hugeFile()
{
    const QString name = u"huge.yaml"_s;
    QFile f(m_dir.filePath(name));
    QVERIFY(f.open(QIODevice::WriteOnly));
    QByteArray chunk = "apiVersion: azure.converge.dev/v1\nkind: Blob\nmetadata: {name: big}\n"
                       "spec:\n  owner: {name: reports}\n  content: |\n";
    const QByteArray line = "    " + QByteArray(75, 'x') + '\n';
    const qint64 size = 100LL << 20;
    qint64 written = f.write(chunk);
    QByteArray block;
    while (block.size() < (1 << 20))
        block += line;
    while (written < size)
        written += f.write(block.left(int(qMin<qint64>(block.size(), size - written))));
    f.close();
    QCOMPARE(QFileInfo(f).size(), size);
    checkRefused(name, m_dir.path(),
                 u"huge.yaml: is 104857600 bytes, larger than the limit of 16777216 bytes"_s);
    QVERIFY(QFile::remove(f.fileName()));
}

void tst_BadManifests::checkRefused(const QString &file, const QString &directory,
                                    const QString &expected)
{
    const Run r = apply(m_workspace, file, directory);
    QVERIFY2(r.exitCode == 2, r.describe().constData());
    const QString err = QString::fromUtf8(r.err);
    const QByteArray why = "expected: " + expected.toUtf8() + '\n' + r.describe();
    QVERIFY2(err.contains(expected), why.constData());
    // Nothing else: no crash report, no stored-object lines.
    QVERIFY2(!err.contains(u" created"_s) && !err.contains(u" configured"_s),
             r.describe().constData());
    const QMap<QString, QByteArray> after = snapshot(m_dir.path());
    QCOMPARE(after.keys(), m_before.keys());
    for (auto it = m_before.cbegin(); it != m_before.cend(); ++it)
        QVERIFY2(after.value(it.key()) == it.value(), qPrintable(it.key() + u" changed"_s));
}

QTEST_GUILESS_MAIN(tst_BadManifests)
#include "tst_badmanifests.moc"
