// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "emulators.h"

#include <QFile>
#include <QHash>
#include <QRandomGenerator>

namespace converge::test {

namespace {

QUrl endpoint(const QString &host, int port, const QString &path)
{
    QUrl url;
    url.setScheme(QStringLiteral("http"));
    url.setHost(host);
    url.setPort(port);
    url.setPath(path);
    return url;
}

} // namespace

Emulators Emulators::fromEnvironment()
{
    Emulators e;
    const QString path = qEnvironmentVariable("CONVERGE_EMULATORS");
    if (path.isEmpty()) {
        e.error = QStringLiteral("CONVERGE_EMULATORS is not set: run this test through CTest");
        return e;
    }
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly | QIODevice::Text)) {
        e.error = QStringLiteral("cannot read %1: did the emulators.start fixture run?").arg(path);
        return e;
    }
    QHash<QString, QString> values;
    while (!file.atEnd()) {
        const QString line = QString::fromUtf8(file.readLine()).trimmed();
        const qsizetype eq = line.indexOf(QLatin1Char('='));
        if (eq > 0)
            values.insert(line.left(eq), line.mid(eq + 1));
    }
    e.host = values.value(QStringLiteral("CONVERGE_EMULATOR_HOST"));
    e.blobPort = values.value(QStringLiteral("CONVERGE_AZURITE_BLOB_PORT")).toInt();
    e.queuePort = values.value(QStringLiteral("CONVERGE_AZURITE_QUEUE_PORT")).toInt();
    e.tablePort = values.value(QStringLiteral("CONVERGE_AZURITE_TABLE_PORT")).toInt();
    e.dynamoPort = values.value(QStringLiteral("CONVERGE_DYNALITE_PORT")).toInt();
    e.dynamoDelayMs = values.value(QStringLiteral("CONVERGE_DYNALITE_DELAY_MS")).toInt();
    e.motoPort = values.value(QStringLiteral("CONVERGE_MOTO_PORT")).toInt();
    e.motoMissing = values.value(QStringLiteral("CONVERGE_MOTO_MISSING"));
    e.motoServer = values.value(QStringLiteral("CONVERGE_MOTO_SERVER"));
    e.pubsubPort = values.value(QStringLiteral("CONVERGE_PUBSUB_PORT")).toInt();
    e.pubsubMissing = values.value(QStringLiteral("CONVERGE_PUBSUB_MISSING"));
    e.spannerPort = values.value(QStringLiteral("CONVERGE_SPANNER_PORT")).toInt();
    e.spannerGrpcPort = values.value(QStringLiteral("CONVERGE_SPANNER_GRPC_PORT")).toInt();
    e.spannerMissing = values.value(QStringLiteral("CONVERGE_SPANNER_MISSING"));
    // Either an optional emulator's port or the reason there is none: a file without both is an
    // old fixture's.
    if (e.host.isEmpty() || !e.blobPort || !e.queuePort || !e.tablePort || !e.dynamoPort ||
        (!e.motoPort && e.motoMissing.isEmpty()) || (!e.pubsubPort && e.pubsubMissing.isEmpty()) ||
        (!e.spannerPort && e.spannerMissing.isEmpty()))
        e.error = QStringLiteral("%1 is incomplete").arg(path);
    return e;
}

QUrl Emulators::blobEndpoint() const
{
    return endpoint(host, blobPort, QLatin1Char('/') + devAccountName());
}

QUrl Emulators::queueEndpoint() const
{
    return endpoint(host, queuePort, QLatin1Char('/') + devAccountName());
}

QUrl Emulators::tableEndpoint() const
{
    return endpoint(host, tablePort, QLatin1Char('/') + devAccountName());
}

QUrl Emulators::dynamoEndpoint() const
{
    return endpoint(host, dynamoPort, QStringLiteral("/"));
}

QUrl Emulators::motoEndpoint() const
{
    return hasMoto() ? endpoint(host, motoPort, QStringLiteral("/")) : QUrl();
}

QUrl Emulators::pubsubEndpoint() const
{
    return hasPubSub() ? endpoint(host, pubsubPort, QString()) : QUrl();
}

QUrl Emulators::spannerEndpoint() const
{
    return hasSpanner() ? endpoint(host, spannerPort, QString()) : QUrl();
}

QString uniqueGcpProject(const QString &what)
{
    return QStringLiteral("cvg-%1-%2")
        .arg(what.left(17))
        .arg(QRandomGenerator::global()->generate(), 8, 16, QLatin1Char('0'));
}

QString devAccountName()
{
    return QStringLiteral("devstoreaccount1");
}

QString devAccountKey()
{
    return QStringLiteral("Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/"
                          "K1SZFPTOtr/KBHBeksoGMGw==");
}

} // namespace converge::test
