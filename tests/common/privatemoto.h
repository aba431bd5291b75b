// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include "emulators.h"

#include <QProcess>
#include <QString>
#include <QTemporaryDir>

#include <optional>

namespace converge::test {

/// A moto_server of the calling test's own, on a free loopback port, for what must not be done
/// to the fixture's shared moto while other tests use it: resetting it (resetMoto()) and turning
/// its signature checking on (enableMotoSignatureChecks()), both settings of the whole server.
/// Everything else uses the shared moto with unique names. Killed when it goes out of scope.
/// Starting one takes one to a few seconds (Python's start), so a test makes one and reuses it.
class PrivateMoto final
{
    Q_DISABLE_COPY_MOVE(PrivateMoto)

public:
    /// `server`: the moto_server to run, the fixture's (Emulators::motoServer).
    explicit PrivateMoto(QString server);
    ~PrivateMoto();

    /// Starts it and waits until it answers an STS call (up to 60 s); false with `error` set
    /// when it does not.
    bool start(QString *error);
    /// host and motoPort of this moto, with motoIsPrivate set; the other emulators' ports are 0.
    Emulators emulators() const;

private:
    QString m_server;
    QTemporaryDir m_dir; ///< working directory and log
    QProcess m_process;
    quint16 m_port = 0;
};

/// Clears all of moto's state (`POST /moto-api/reset`): every resource of every service. Only for
/// a PrivateMoto: for the fixture's moto it refuses and says why (the tests running beside would
/// lose their resources).
bool resetMoto(const Emulators &emulators, QString *error);

struct MotoAccessKey
{
    QString accessKeyId;
    QString secretAccessKey;
};

/// Turns on moto's SigV4 checking and returns the one key it then accepts, allowed every action.
/// moto lets a number of calls through unchecked after `POST /moto-api/reset-auth` with that
/// number as a plain-text body: exactly four here, for IAM CreateUser, CreatePolicy (Action `*`),
/// AttachUserPolicy and CreateAccessKey; from the fifth call on, a request signed with any other
/// key or secret is refused with 403. Only for a PrivateMoto, like resetMoto().
std::optional<MotoAccessKey> enableMotoSignatureChecks(const Emulators &emulators, QString *error);

} // namespace converge::test
