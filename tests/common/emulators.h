// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include <QString>
#include <QTest>
#include <QUrl>

namespace converge::test {

/// Where the CTest fixture started Azurite, dynalite, moto and Google's Pub/Sub and Spanner
/// emulators (read from $CONVERGE_EMULATORS).
///
/// moto (AWS on loopback) is optional: it is Python's, installed apart (`pip install
/// 'moto[server]'`), and the fixture starts it only when it finds `moto_server`. A test that needs
/// it begins with CONVERGE_REQUIRE_MOTO(emulators), which skips with the fixture's reason.
///
/// The fixture's moto is shared by every test of the CTest run, two or more at a time: tests use
/// unique resource names (uniqueName() in awstestsupport.h) and never reset it or change its
/// settings. A test that needs an empty server, or signature checking (a setting of the whole
/// server), starts a PrivateMoto (privatemoto.h).
///
/// The Google emulators are optional as moto is (the Google Cloud CLI's packages
/// google-cloud-cli-pubsub-emulator, with Java 17, and google-cloud-cli-spanner-emulator):
/// CONVERGE_REQUIRE_PUBSUB / CONVERGE_REQUIRE_SPANNER skip without them. Neither has a reset, but
/// both keep each project apart: a test starts from an empty emulator by working in a project of
/// its own, uniqueGcpProject().
struct Emulators
{
    QString host;
    int blobPort = 0;
    int queuePort = 0;
    int tablePort = 0;
    int dynamoPort = 0;
    int dynamoDelayMs = 0;
    int motoPort = 0;           ///< 0 when there is no moto; motoMissing says why
    QString motoMissing;        ///< why the fixture did not start moto, with how to get it
    QString motoServer;         ///< the moto_server the fixture ran, for PrivateMoto
    bool motoIsPrivate = false; ///< a PrivateMoto's, which a test may reset
    int pubsubPort = 0;         ///< 0 when there is no Pub/Sub emulator; pubsubMissing says why
    QString pubsubMissing;
    int spannerPort = 0;     ///< the Spanner emulator's REST gateway; 0 when there is none
    int spannerGrpcPort = 0; ///< its gRPC server (emulator_main)
    QString spannerMissing;
    QString error; ///< non-empty when the fixture's file is missing or incomplete

    static Emulators fromEnvironment();

    bool isValid() const { return error.isEmpty(); }
    /// http://127.0.0.1:PORT/devstoreaccount1 for blob, queue or table.
    QUrl blobEndpoint() const;
    QUrl queueEndpoint() const;
    QUrl tableEndpoint() const;
    QUrl dynamoEndpoint() const;
    /// http://127.0.0.1:PORT/ for every AWS service moto serves (the region comes from the
    /// request's signature); empty when there is no moto.
    QUrl motoEndpoint() const;
    bool hasMoto() const { return motoPort > 0; }
    /// http://127.0.0.1:PORT for the Pub/Sub emulator's and the Spanner gateway's REST APIs;
    /// empty when not started.
    QUrl pubsubEndpoint() const;
    QUrl spannerEndpoint() const;
    bool hasPubSub() const { return pubsubPort > 0; }
    bool hasSpanner() const { return spannerPort > 0; }
};

/// "cvg-<what>-<random>", a Google project ID (6-30 characters) no other test works in: the
/// emulators' state for it starts empty.
QString uniqueGcpProject(const QString &what);

/// The development account and key that Azurite publishes in its documentation (not a secret).
QString devAccountName();
QString devAccountKey();

} // namespace converge::test

/// Fails when the fixture's file is unusable, skips the test function (all of the test when used
/// in initTestCase()) with "skipped: moto_server not found (…)" when there is no moto.
#define CONVERGE_REQUIRE_MOTO(emulators)                                                           \
    do {                                                                                           \
        QVERIFY2((emulators).isValid(), qPrintable((emulators).error));                            \
        if (!(emulators).hasMoto())                                                                \
            QSKIP(qPrintable(QStringLiteral("skipped: moto_server not found (%1)")                 \
                                 .arg((emulators).motoMissing)));                                  \
    } while (false)

/// As CONVERGE_REQUIRE_MOTO, for the Pub/Sub emulator: "skipped: the Pub/Sub emulator not found
/// (…)".
#define CONVERGE_REQUIRE_PUBSUB(emulators)                                                         \
    do {                                                                                           \
        QVERIFY2((emulators).isValid(), qPrintable((emulators).error));                            \
        if (!(emulators).hasPubSub())                                                              \
            QSKIP(qPrintable(QStringLiteral("skipped: the Pub/Sub emulator not found (%1)")        \
                                 .arg((emulators).pubsubMissing)));                                \
    } while (false)

/// As CONVERGE_REQUIRE_MOTO, for the Spanner emulator: "skipped: the Spanner emulator not found
/// (…)".
#define CONVERGE_REQUIRE_SPANNER(emulators)                                                        \
    do {                                                                                           \
        QVERIFY2((emulators).isValid(), qPrintable((emulators).error));                            \
        if (!(emulators).hasSpanner())                                                             \
            QSKIP(qPrintable(QStringLiteral("skipped: the Spanner emulator not found (%1)")        \
                                 .arg((emulators).spannerMissing)));                               \
    } while (false)
