// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#include "secretreferencefield.h"

#include "secretreference.h"

#include <QJsonObject>

namespace converge {

FieldSchema SecretReferenceField::make(const QString &name, const QString &description)
{
    using F = FieldSchema;
    F field = F::object(
        name,
        {F::string(QStringLiteral("env"),
                   QStringLiteral("An environment variable of Converge's process.")),
         F::string(QStringLiteral("keychain"), QStringLiteral("An OS keychain entry.")),
         F::string(QStringLiteral("file"),
                   QStringLiteral("A file whose whole content is the value; mode 0600 or "
                                  "stricter; '~/' means the home folder."))},
        (description.isEmpty() ? QString() : description + QLatin1Char(' ')) +
            QStringLiteral("Given only by reference: {env: VARIABLE}, {keychain: ENTRY} or "
                           "{file: PATH}; the value never reaches the workspace, events or "
                           "logs."));
    field.setCheck([](const QJsonValue &v) { return SecretReference::check(v.toObject()); });
    return field;
}

} // namespace converge
