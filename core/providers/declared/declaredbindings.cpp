// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "declaredbindings.h"

namespace converge {

QList<QPair<QString, QString>> DeclaredBindings::problems(const ServiceDeclaration &service)
{
    QList<QPair<QString, QString>> out;
    const QString at = QStringLiteral("service");
    const bool rest = service.protocol == QLatin1String("rest-xml") ||
                      service.protocol == QLatin1String("rest-json");
    if (rest && (service.operations.isEmpty() || service.shapes.isEmpty()))
        out.append(
            {at,
             QStringLiteral("the %1 protocol needs operations and shapes").arg(service.protocol)});
    // Google's REST APIs: each operation's verb and path (GcpRestClient).
    const bool google = service.protocol == QLatin1String("google-rest");
    if (google && service.operations.isEmpty())
        out.append({at, QStringLiteral("the google-rest protocol needs operations")});
    for (auto it = service.operations.begin(); google && it != service.operations.end(); ++it) {
        const QJsonObject op = it.value().toObject();
        if (op.value(QStringLiteral("method")).toString().isEmpty() ||
            !op.value(QStringLiteral("path")).toString().startsWith(QLatin1Char('/')))
            out.append({at + QStringLiteral(".operations.") + it.key(),
                        QStringLiteral("needs a method and a path from /")});
    }
    if (!rest && !google)
        return out;
    for (const KindDeclaration &kind : service.kinds) {
        QList<DeclaredCall> calls{kind.create, kind.read, kind.remove, kind.list};
        calls << kind.followReads << kind.updates;
        QStringList operations;
        for (const DeclaredCall &call : std::as_const(calls))
            operations << call.operation << call.clear;
        for (const QString &operation : std::as_const(operations)) {
            if (!operation.isEmpty() && !service.operations.contains(operation))
                out.append(
                    {QStringLiteral("service.operations"),
                     QStringLiteral("has no %1, which %2 calls").arg(operation, kind.kind.name)});
        }
    }
    return out;
}

} // namespace converge
