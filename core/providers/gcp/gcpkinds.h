// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

#include "kind.h"

#include <QString>

namespace converge {

class DeclaredServices;
class KindRegistry;

/// The kinds of the Google Cloud provider (group gcp.converge.dev, version v1): GcpProject, the
/// connection to one project, and the kinds it owns, declared as data (resources/kinds/gcp,
/// docs/kinds.md) from Google's own API models.
class GcpKinds final
{
public:
    static QString group() { return QStringLiteral("gcp.converge.dev"); }
    static QString version() { return QStringLiteral("v1"); }
    static QString apiVersion() { return group() + QLatin1Char('/') + version(); }
    static QString projectKind() { return QStringLiteral("GcpProject"); }

    /// GcpProject: projectId, endpoints (pubsub, spanner) and credential (exactly one of
    /// emulator, gcloud, tokenCommand, applicationDefault, serviceAccountKey).
    static Kind project();
    /// Google's public endpoint of `service` (pubsub, spanner).
    static QString defaultEndpoint(const QString &service);
    /// The endpoint a project's spec gives `service`, else Google's.
    static QString endpoint(const QJsonObject &projectSpec, const QString &service);
    /// Whether a project's credential is `emulator: true`.
    static bool usesEmulators(const QJsonObject &projectSpec);
    /// Whether a project reaches `service`: one on the emulators only the endpoints it names
    /// (Google's own would be asked without a credential), any other every service.
    static bool reaches(const QJsonObject &projectSpec, const QString &service);

    /// The declared services (Pub/Sub, …) and their kinds, read from the program's resources
    /// (:/kinds/gcp) once.
    static const DeclaredServices &declared();

    static void registerKinds(KindRegistry &registry);
};

} // namespace converge
