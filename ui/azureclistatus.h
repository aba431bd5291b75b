// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include <QObject>
#include <QPointer>
#include <QString>

#include <chrono>

class QProcess;
class QTimer;

namespace converge {

/// Who is signed in to the Azure CLI: runs `az account show -o json` (with `--subscription`
/// when one is named) as a child process, never waiting on the calling thread, and reports the
/// user, tenant and subscription, or why there is none (not installed, not signed in, no answer).
/// A new check() abandons the one still running.
class AzureCliStatus final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(AzureCliStatus)

public:
    enum class State { Unknown, Checking, SignedIn, NotInstalled, NotSignedIn, Failed };

    struct Result
    {
        State state = State::Unknown;
        QString user;           ///< user.name: an e-mail address, or a service principal's ID
        QString tenant;         ///< tenantDisplayName, else tenantDefaultDomain, else tenantId
        QString tenantId;       ///< tenantId
        QString subscription;   ///< name
        QString subscriptionId; ///< id
        QString message;        ///< what to tell the person when not SignedIn

        /// One line for the dialog.
        QString text() const;
    };

    explicit AzureCliStatus(QObject *parent = nullptr);
    ~AzureCliStatus() override;

    void setTimeout(std::chrono::milliseconds timeout) { m_timeout = timeout; }
    /// Starts a check; finished() follows, also when `az` is missing.
    void check(const QString &subscription = {});
    const Result &result() const { return m_result; }

    /// What `az account show -o json` printed and exited with, as a Result.
    static Result parse(int exitCode, const QByteArray &out, const QByteArray &err);

Q_SIGNALS:
    void finished(const converge::AzureCliStatus::Result &result);

private:
    void finish(const Result &result);
    void abandon();

    std::chrono::milliseconds m_timeout{std::chrono::seconds(30)};
    Result m_result;
    QPointer<QProcess> m_process; // owned through Qt parents until abandoned
    QTimer *m_timer = nullptr;    // owned through Qt parents
};

} // namespace converge
