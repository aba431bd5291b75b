// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "azureclistatus.h"

#include <QCoreApplication>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QStandardPaths>
#include <QTimer>

namespace converge {

namespace {

// Result is no QObject; its texts share the class's translation context.
QString trStatus(const char *text)
{
    return QCoreApplication::translate("converge::AzureCliStatus", text);
}

QString installHint()
{
    return trStatus("The Azure CLI is not installed (apt install azure-cli).");
}

// The CLI's own explanation, without its "ERROR: " prefix, short enough for a label.
QString cliMessage(const QByteArray &err)
{
    QString text = QString::fromUtf8(err).trimmed();
    if (text.startsWith(QLatin1String("ERROR:")))
        text = text.mid(6).trimmed();
    if (text.size() > 400)
        text = text.left(400) + QStringLiteral("…");
    return text;
}

AzureCliStatus::Result checking()
{
    AzureCliStatus::Result r;
    r.state = AzureCliStatus::State::Checking;
    return r;
}

} // namespace

QString AzureCliStatus::Result::text() const
{
    switch (state) {
    case State::Unknown:
        return {};
    case State::Checking:
        return trStatus("Asking the Azure CLI who is signed in…");
    case State::SignedIn:
        return trStatus("Signed in as %1\nTenant: %2\nSubscription: %3")
            .arg(user,
                 tenantId.isEmpty() || tenant == tenantId
                     ? tenant
                     : QStringLiteral("%1 (%2)").arg(tenant, tenantId),
                 subscription);
    case State::NotInstalled:
    case State::NotSignedIn:
    case State::Failed:
        return message;
    }
    return {};
}

AzureCliStatus::AzureCliStatus(QObject *parent)
    : QObject(parent)
    , m_timer(new QTimer(this))
{
    m_timer->setSingleShot(true);
    connect(m_timer, &QTimer::timeout, this, [this] {
        Result r;
        r.state = State::Failed;
        r.message = tr("az account show did not answer within %1 s; check the Azure CLI in a "
                       "terminal")
                        .arg(std::chrono::duration_cast<std::chrono::seconds>(m_timeout).count());
        abandon();
        finish(r);
    });
}

AzureCliStatus::~AzureCliStatus()
{
    // QProcess's own destructor kills the child and reaps it, which takes no time after a kill.
    if (m_process)
        m_process->disconnect(this);
}

void AzureCliStatus::abandon()
{
    m_timer->stop();
    if (!m_process)
        return;
    QProcess *process = m_process;
    m_process = nullptr;
    process->disconnect(this);
    // Deleted once it has exited: killing and waiting here would block the caller's thread.
    connect(process, &QProcess::finished, process, &QObject::deleteLater);
    connect(process, &QProcess::errorOccurred, process, &QObject::deleteLater);
    process->setParent(nullptr);
    if (process->state() == QProcess::NotRunning)
        process->deleteLater();
    else
        process->kill();
}

void AzureCliStatus::check(const QString &subscription)
{
    abandon();
    const QString az = QStandardPaths::findExecutable(QStringLiteral("az"));
    if (az.isEmpty()) {
        Result r;
        r.state = State::NotInstalled;
        r.message = installHint();
        // Queued, so that a caller sees finished() after check() returns, as when az runs.
        QMetaObject::invokeMethod(
            this, [this, r] { finish(r); }, Qt::QueuedConnection);
        m_result = checking();
        return;
    }
    QStringList arguments{QStringLiteral("account"), QStringLiteral("show"), QStringLiteral("-o"),
                          QStringLiteral("json")};
    if (!subscription.trimmed().isEmpty())
        arguments << QStringLiteral("--subscription") << subscription.trimmed();
    auto *process = new QProcess(this);
    m_process = process;
    process->setProgram(az);
    process->setArguments(arguments);
    process->setStandardInputFile(QProcess::nullDevice());
    connect(process, &QProcess::finished, this, [this, process](int exitCode) {
        if (process != m_process)
            return;
        const Result r =
            parse(exitCode, process->readAllStandardOutput(), process->readAllStandardError());
        abandon();
        finish(r);
    });
    connect(process, &QProcess::errorOccurred, this, [this, process](QProcess::ProcessError e) {
        if (process != m_process || e != QProcess::FailedToStart)
            return; // a crash also ends in finished()
        Result r;
        r.state = State::NotInstalled;
        r.message = installHint();
        abandon();
        finish(r);
    });
    m_result = checking();
    process->start();
    m_timer->start(m_timeout);
}

AzureCliStatus::Result AzureCliStatus::parse(int exitCode, const QByteArray &out,
                                             const QByteArray &err)
{
    Result r;
    if (exitCode != 0) {
        const QString message = cliMessage(err);
        const bool signedOut = message.contains(QLatin1String("az login"));
        r.state = signedOut ? State::NotSignedIn : State::Failed;
        if (signedOut)
            r.message = tr("Nobody is signed in to the Azure CLI: %1 Run az login in a terminal, "
                           "then Check again.")
                            .arg(message);
        else
            r.message = tr("az account show failed (exit code %1): %2")
                            .arg(exitCode)
                            .arg(message.isEmpty() ? tr("no message") : message);
        return r;
    }
    const QJsonObject o = QJsonDocument::fromJson(out).object();
    const QString user =
        o.value(QStringLiteral("user")).toObject().value(QStringLiteral("name")).toString();
    if (o.isEmpty() || user.isEmpty()) {
        r.state = State::Failed;
        r.message = tr("az account show printed no signed-in user; is this the Azure CLI?");
        return r;
    }
    r.state = State::SignedIn;
    r.user = user;
    r.tenantId = o.value(QStringLiteral("tenantId")).toString();
    for (const char *key : {"tenantDisplayName", "tenantDefaultDomain", "tenantId"}) {
        r.tenant = o.value(QLatin1String(key)).toString();
        if (!r.tenant.isEmpty())
            break;
    }
    r.subscription = o.value(QStringLiteral("name")).toString();
    r.subscriptionId = o.value(QStringLiteral("id")).toString();
    return r;
}

void AzureCliStatus::finish(const Result &result)
{
    m_result = result;
    Q_EMIT finished(result);
}

} // namespace converge
