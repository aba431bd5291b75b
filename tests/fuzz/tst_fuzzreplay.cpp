// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT

// Replays one fuzz target's seed corpus and its regressions (inputs that once crashed it) in the
// ordinary build, so that a fixed crash stays fixed without clang or libFuzzer. Built once per
// target with CONVERGE_FUZZ_TARGET naming it.

#include <QDir>
#include <QFile>
#include <QTest>

#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

class tst_FuzzReplay final : public QObject
{
    Q_OBJECT

private slots:
    void replay_data();
    void replay();
};

void tst_FuzzReplay::replay_data()
{
    QTest::addColumn<QString>("path");
    const QString root =
        qEnvironmentVariable("CONVERGE_SOURCE_DIR") + QStringLiteral("/tests/fuzz/");
    const QString target = QStringLiteral(CONVERGE_FUZZ_TARGET);
    int count = 0;
    for (const QString &folder : {QStringLiteral("corpus/"), QStringLiteral("regressions/")}) {
        const QDir dir(root + folder + target);
        const QStringList names = dir.entryList(QDir::Files, QDir::Name);
        for (const QString &name : names) {
            QTest::newRow(qPrintable(folder + name)) << dir.filePath(name);
            ++count;
        }
    }
    QVERIFY2(count > 0, "no seed corpus");
}

void tst_FuzzReplay::replay()
{
    QFETCH(QString, path);
    QFile f(path);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QByteArray data = f.readAll();
    // The target returns 0 for every input; a crash or a sanitizer report fails the test.
    QCOMPARE(LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t *>(data.constData()),
                                    size_t(data.size())),
             0);
}

QTEST_GUILESS_MAIN(tst_FuzzReplay)
#include "tst_fuzzreplay.moc"
