// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "privateazurite.h"

#include "emulators.h"

#include <QDir>
#include <QElapsedTimer>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTest>

#include <csignal>

namespace converge::test {

namespace {

quint16 freePort()
{
    QTcpServer probe;
    return probe.listen(QHostAddress::LocalHost, 0) ? probe.serverPort() : 0;
}

QString loopback()
{
    return QStringLiteral("127.0.0.1");
}

} // namespace

PrivateAzurite::PrivateAzurite(const QString &sourceDir)
    : PrivateAzurite(sourceDir, Options())
{}

PrivateAzurite::PrivateAzurite(const QString &sourceDir, Options options)
    : m_sourceDir(sourceDir)
    , m_options(std::move(options))
    , m_blob(freePort())
    , m_queue(freePort())
    , m_table(freePort())
{}

PrivateAzurite::~PrivateAzurite()
{
    if (m_process.state() == QProcess::Running) {
        signal(SIGCONT);
        m_process.kill();
        m_process.waitForFinished(5000);
    }
}

bool PrivateAzurite::start()
{
    const QString location = m_options.location.isEmpty() ? m_dir.path() : m_options.location;
    if (m_options.location.isEmpty() && !m_dir.isValid())
        return false;
    m_process.setProgram(QDir(m_sourceDir).filePath(QStringLiteral("node_modules/.bin/azurite")));
    QStringList extra;
    if (!m_options.certPath.isEmpty())
        extra << QStringLiteral("--cert") << m_options.certPath << QStringLiteral("--key")
              << m_options.keyPath;
    if (m_options.oauth)
        extra << QStringLiteral("--oauth") << QStringLiteral("basic");
    m_process.setArguments(
        QStringList{QStringLiteral("--blobHost"), loopback(), QStringLiteral("--blobPort"),
                    QString::number(m_blob), QStringLiteral("--queueHost"), loopback(),
                    QStringLiteral("--queuePort"), QString::number(m_queue),
                    QStringLiteral("--tableHost"), loopback(), QStringLiteral("--tablePort"),
                    QString::number(m_table), QStringLiteral("--location"), location,
                    QStringLiteral("--silent"), QStringLiteral("--disableTelemetry")} +
        extra);
    m_process.setProcessChannelMode(QProcess::ForwardedChannels);
    m_process.start();
    if (!m_process.waitForStarted(10000))
        return false;
    // Listening on every port means ready.
    QElapsedTimer timer;
    timer.start();
    for (quint16 port : {m_blob, m_queue, m_table}) {
        for (;;) {
            QTcpSocket probe;
            probe.connectToHost(loopback(), port);
            if (probe.waitForConnected(200))
                break;
            if (timer.elapsed() > 90000 || m_process.state() != QProcess::Running)
                return false;
            QTest::qWait(100);
        }
    }
    return true;
}

bool PrivateAzurite::stop()
{
    if (m_process.state() != QProcess::Running)
        return true;
    signal(SIGCONT);
    m_process.terminate();
    return m_process.waitForFinished(60000);
}

void PrivateAzurite::signal(int sig) const
{
    ::kill(pid_t(m_process.processId()), sig);
}

QJsonObject PrivateAzurite::endpoints() const
{
    const QString scheme =
        m_options.certPath.isEmpty() ? QStringLiteral("http") : QStringLiteral("https");
    const auto url = [&scheme](quint16 port) {
        return QStringLiteral("%1://127.0.0.1:%2/%3").arg(scheme).arg(port).arg(devAccountName());
    };
    return QJsonObject{{QStringLiteral("blob"), url(m_blob)},
                       {QStringLiteral("queue"), url(m_queue)},
                       {QStringLiteral("table"), url(m_table)}};
}

Emulators PrivateAzurite::emulators() const
{
    Emulators e;
    e.host = loopback();
    e.blobPort = m_blob;
    e.queuePort = m_queue;
    e.tablePort = m_table;
    return e;
}

} // namespace converge::test
