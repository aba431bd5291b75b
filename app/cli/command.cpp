// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "command.h"

#include "commandcontext.h"
#include "console.h"
#include "duration.h"

#include <QCommandLineParser>

namespace converge {

QList<QCommandLineOption> Command::waitOptions(const QString &waitsFor)
{
    return {QCommandLineOption(QStringLiteral("wait"),
                               QStringLiteral("Wait until %1 (exit 1 when a resource fails or the "
                                              "timeout passes). --wait=DURATION sets the timeout "
                                              "too.")
                                   .arg(waitsFor)),
            QCommandLineOption(QStringLiteral("timeout"),
                               QStringLiteral("How long --wait waits, e.g. 30s, 2m, 1h (default "
                                              "5m)."),
                               QStringLiteral("DURATION"))};
}

std::optional<std::chrono::milliseconds>
Command::waitTimeout(CommandContext &ctx, const QCommandLineParser &parser, int *exitCode)
{
    const bool timeoutSet = parser.isSet(QStringLiteral("timeout"));
    if (!parser.isSet(QStringLiteral("wait")) && !timeoutSet)
        return std::nullopt;
    if (!timeoutSet)
        return std::chrono::minutes(5);
    const QString text = parser.value(QStringLiteral("timeout"));
    const std::optional<std::chrono::milliseconds> timeout = Duration::parse(text);
    if (!timeout) {
        ctx.console().error(
            QStringLiteral("\"%1\" is not a duration (e.g. 30s, 2m, 1h30m)").arg(text));
        *exitCode = ExitUsage;
    }
    return timeout;
}

QCommandLineOption Command::outputOption(const QStringList &formats)
{
    return QCommandLineOption({QStringLiteral("o"), QStringLiteral("output")},
                              QStringLiteral("Output format: %1 (default %2).")
                                  .arg(formats.join(QStringLiteral(", ")), formats.constFirst()),
                              QStringLiteral("FORMAT"), formats.constFirst());
}

} // namespace converge
