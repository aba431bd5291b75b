// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT

// Replays every fuzz target's seed corpus and its regressions (inputs that once crashed it) in
// the ordinary build, so that a fixed crash stays fixed without clang or libFuzzer. Each
// fuzz_<target>.cpp is built here with its LLVMFuzzerTestOneInput renamed convergeFuzz_<target>
// (tests/fuzz/CMakeLists.txt), so that one executable holds them all.

#include <QDir>
#include <QFile>
#include <QTest>

#include <cstddef>
#include <cstdint>

#define CONVERGE_FUZZ_TARGETS(X)                                                                   \
    X(manifestreader)                                                                              \
    X(azurexml)                                                                                    \
    X(dynamodbjson)                                                                                \
    X(sharedkey)                                                                                   \
    X(sigv4) X(connectionstring) X(httpresponse) X(awsqueryxml) X(awsrestxml) X(awsrestjson)

#define CONVERGE_DECLARE_FUZZ(name) extern "C" int convergeFuzz_##name(const uint8_t *, size_t);
CONVERGE_FUZZ_TARGETS(CONVERGE_DECLARE_FUZZ)

using FuzzTarget = int (*)(const uint8_t *, size_t);
Q_DECLARE_METATYPE(FuzzTarget)

class tst_FuzzReplay final : public QObject
{
    Q_OBJECT

private slots:
    void replay_data();
    void replay();
};

void tst_FuzzReplay::replay_data()
{
    QTest::addColumn<FuzzTarget>("target");
    QTest::addColumn<QString>("path");
    const QString root =
        qEnvironmentVariable("CONVERGE_SOURCE_DIR") + QStringLiteral("/tests/fuzz/");
    const QList<std::pair<QString, FuzzTarget>> targets{
#define CONVERGE_FUZZ_ENTRY(name) {QStringLiteral(#name), convergeFuzz_##name},
        CONVERGE_FUZZ_TARGETS(CONVERGE_FUZZ_ENTRY)};
    for (const auto &[target, run] : targets) {
        int count = 0;
        for (const QString &folder : {QStringLiteral("corpus/"), QStringLiteral("regressions/")}) {
            const QDir dir(root + folder + target);
            const QStringList names = dir.entryList(QDir::Files, QDir::Name);
            for (const QString &name : names) {
                QTest::addRow("%s/%s%s", qPrintable(target), qPrintable(folder), qPrintable(name))
                    << run << dir.filePath(name);
                ++count;
            }
        }
        QVERIFY2(count > 0, qPrintable(QStringLiteral("no seed corpus for ") + target));
    }
}

void tst_FuzzReplay::replay()
{
    QFETCH(FuzzTarget, target);
    QFETCH(QString, path);
    QFile f(path);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QByteArray data = f.readAll();
    // The target returns 0 for every input; a crash or a sanitizer report fails the test.
    QCOMPARE(target(reinterpret_cast<const uint8_t *>(data.constData()), size_t(data.size())), 0);
}

QTEST_GUILESS_MAIN(tst_FuzzReplay)
#include "tst_fuzzreplay.moc"
