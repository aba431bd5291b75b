// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "explaincommand.h"

#include "commandcontext.h"
#include "console.h"
#include "kindcatalog.h"
#include "kindexplainer.h"
#include "kindregistry.h"
#include "services.h"

#include <QCommandLineParser>

namespace converge {

QString ExplainCommand::summary() const
{
    return QStringLiteral("Document a kind's fields, or list the kinds");
}

QString ExplainCommand::synopsis() const
{
    return QStringLiteral("[KIND[.FIELD…]] [--recursive]");
}

QString ExplainCommand::description() const
{
    return QStringLiteral(
        "Prints what a manifest of KIND may say, as `kubectl explain` does: the kind's "
        "apiVersion and description, then each spec field with its type, whether it is "
        "required or immutable, the first sentence of its description and its rules (enum "
        "values, lengths, pattern, range, default). KIND.FIELD (dotted, e.g. "
        "dynamodbtable.keySchema.attributeName) prints one field in full and its own fields; "
        "a list's or map's item fields are reached through its name, and a leading `spec.` "
        "may be written or left out. KIND is case-insensitive and may be plural.\n\n"
        "--recursive prints the whole tree of field names and types instead. Without KIND, "
        "lists every kind with its apiVersion and description, by provider and service. An "
        "unknown kind or field is a usage error (exit 2) with a did-you-mean. No workspace is "
        "opened.");
}

QString ExplainCommand::examples() const
{
    return QStringLiteral("# Every kind, by service\n"
                          "converge explain\n"
                          "# An SQS queue's fields\n"
                          "converge explain sqsqueue\n"
                          "# One field, in full\n"
                          "converge explain CloudWatchLogGroup.retentionDays\n"
                          "# A list item's field\n"
                          "converge explain dynamodbtable.keySchema.attributeName\n"
                          "# The whole tree of names and types\n"
                          "converge explain dynamodbtable --recursive\n");
}

QList<QCommandLineOption> ExplainCommand::options() const
{
    return {QCommandLineOption(QStringLiteral("recursive"),
                               QStringLiteral("Print the whole tree of field names and types."))};
}

int ExplainCommand::run(CommandContext &ctx, const QCommandLineParser &parser)
{
    Console &console = ctx.console();
    const QStringList arguments = parser.positionalArguments();
    if (arguments.size() > 1) {
        console.error(QStringLiteral("explain takes one KIND[.FIELD…] (see converge explain "
                                     "--help)"));
        return ExitUsage;
    }
    const KindRegistry &kinds = ctx.services().kinds();
    if (arguments.isEmpty()) {
        console.out(KindCatalog::text(KindCatalog::groups(kinds)));
        return ExitSuccess;
    }
    // The kind is the first dotted name: `kind.group` is no kind here, as in kubectl explain.
    QStringList path = arguments.constFirst().split(QLatin1Char('.'));
    QString error;
    const std::optional<QString> kindName = ctx.kinds().resolve(path.takeFirst(), &error);
    if (!kindName) {
        console.error(error);
        return ExitUsage;
    }
    if (path.contains(QString())) {
        console.error(QStringLiteral("\"%1\" has an empty field name").arg(arguments.constFirst()));
        return ExitUsage;
    }
    const std::optional<QString> text =
        KindExplainer(*kinds.find(*kindName))
            .explain(path, parser.isSet(QStringLiteral("recursive")), &error);
    if (!text) {
        console.error(error);
        return ExitUsage;
    }
    console.out(*text);
    return ExitSuccess;
}

} // namespace converge
