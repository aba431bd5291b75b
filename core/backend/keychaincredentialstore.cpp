// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "keychaincredentialstore.h"

#include <QEventLoop>
#include <QTimer>

#include <qt6keychain/keychain.h>

namespace converge {

namespace {

struct JobResult
{
    bool finished = false;
    QKeychain::Error error = QKeychain::NoError;
    QString errorString;
    QString secret;
};

/// Runs `job` to completion in a local event loop. The job deletes itself once finished, also
/// when we stop waiting for it after the timeout.
JobResult run(QKeychain::Job *job, std::chrono::milliseconds timeout)
{
    JobResult result;
    job->setAutoDelete(true);
    job->setInsecureFallback(false); // never store secrets in plaintext behind the user's back
    QEventLoop loop;
    QObject::connect(job, &QKeychain::Job::finished, &loop, [&result, &loop](QKeychain::Job *j) {
        result.finished = true;
        result.error = j->error();
        result.errorString = j->errorString();
        if (auto *read = qobject_cast<QKeychain::ReadPasswordJob *>(j))
            result.secret = read->textData();
        loop.quit();
    });
    QTimer::singleShot(timeout, &loop, &QEventLoop::quit);
    job->start();
    if (!result.finished)
        loop.exec();
    return result;
}

bool failFor(const JobResult &result, const QString &name, BackendError *error)
{
    BackendError e;
    if (!result.finished) {
        e.category = BackendError::Category::Terminal;
        e.code = QStringLiteral("KeychainTimeout");
        e.message = QStringLiteral("the OS keychain did not answer; it may be waiting for an "
                                   "unlock prompt. ") +
                    KeychainCredentialStore::unavailableMessage();
    } else {
        switch (result.error) {
        case QKeychain::NoError:
            return true;
        case QKeychain::EntryNotFound:
            e.category = BackendError::Category::NotFound;
            e.code = QStringLiteral("CredentialNotFound");
            e.message = QStringLiteral("the OS keychain has no entry %1 for %2")
                            .arg(name, KeychainCredentialStore::serviceName());
            break;
        case QKeychain::AccessDenied:
        case QKeychain::AccessDeniedByUser:
            e.category = BackendError::Category::Unauthorized;
            e.code = QStringLiteral("KeychainAccessDenied");
            e.message = QStringLiteral("the OS keychain denied access to %1: %2")
                            .arg(name, result.errorString);
            break;
        case QKeychain::CouldNotDeleteEntry:
            e.category = BackendError::Category::Terminal;
            e.code = QStringLiteral("KeychainError");
            e.message = QStringLiteral("the OS keychain could not delete %1: %2")
                            .arg(name, result.errorString);
            break;
        case QKeychain::NoBackendAvailable:
        case QKeychain::NotImplemented:
        case QKeychain::OtherError:
            // Headless Linux sessions end up here, with qtkeychain's "Unknown error".
            e.category = BackendError::Category::Terminal;
            e.code = QStringLiteral("KeychainUnavailable");
            e.message = KeychainCredentialStore::unavailableMessage() +
                        QStringLiteral(" (qtkeychain: %1)").arg(result.errorString);
            break;
        }
    }
    if (error)
        *error = e;
    return false;
}

} // namespace

KeychainCredentialStore::KeychainCredentialStore(std::chrono::milliseconds timeout)
    : m_timeout(timeout)
{}

QString KeychainCredentialStore::unavailableMessage()
{
    return QStringLiteral("the OS keychain is not available (no Secret Service / KWallet "
                          "running); use `credential: {env: VARIABLE}` or "
                          "`credential: {file: PATH}` instead");
}

QString KeychainCredentialStore::description() const
{
    return QStringLiteral("the OS keychain");
}

std::optional<QString> KeychainCredentialStore::read(const QString &name, BackendError *error)
{
    auto *job = new QKeychain::ReadPasswordJob(serviceName());
    job->setKey(name);
    const JobResult result = run(job, m_timeout);
    if (!failFor(result, name, error))
        return std::nullopt;
    return result.secret;
}

bool KeychainCredentialStore::write(const QString &name, const QString &secret, BackendError *error)
{
    auto *job = new QKeychain::WritePasswordJob(serviceName());
    job->setKey(name);
    job->setTextData(secret);
    return failFor(run(job, m_timeout), name, error);
}

bool KeychainCredentialStore::remove(const QString &name, BackendError *error)
{
    auto *job = new QKeychain::DeletePasswordJob(serviceName());
    job->setKey(name);
    const JobResult result = run(job, m_timeout);
    if (result.finished && result.error == QKeychain::EntryNotFound)
        return true;
    return failFor(result, name, error);
}

} // namespace converge
