// SPDX-FileCopyrightText: Converge contributors
// SPDX-License-Identifier: MIT
#pragma once

// Shared set-up for the engine's unit tests: a temporary workspace, the test kinds, a fake
// backend, and helpers to make Gadgets (accounts) and Widgets.

#include "fakemanager.h"
#include "kindregistry.h"
#include "schemavalidator.h"
#include "workspace.h"

#include <QTemporaryDir>
#include <QTest>

namespace converge::test {

struct EngineFixture
{
    EngineFixture()
    {
        registerTestKinds(kinds);
        path = dir.filePath(QStringLiteral("engine.converge"));
        StoreError error;
        ws = Workspace::open(path, &error);
        if (!ws)
            qFatal("cannot open the test workspace: %s", qPrintable(error.message));
    }

    static Resource gadget(const QString &name, const QString &location = QStringLiteral("west"))
    {
        Resource r;
        r.apiVersion = testApiVersion();
        r.kind = QStringLiteral("Gadget");
        r.metadata.name = name;
        r.spec = QJsonObject{{QStringLiteral("location"), location}};
        return r;
    }

    static Resource widget(const QString &name, const QString &owner, int replicas = 1)
    {
        Resource r;
        r.apiVersion = testApiVersion();
        r.kind = QStringLiteral("Widget");
        r.metadata.name = name;
        r.spec =
            QJsonObject{{QStringLiteral("owner"), QJsonObject{{QStringLiteral("name"), owner}}},
                        {QStringLiteral("replicas"), replicas}};
        return r;
    }

    /// Validates (filling defaults) and applies; fails the test on error.
    bool apply(QList<Resource> resources)
    {
        SchemaValidator validator(kinds);
        for (Resource &r : resources) {
            const auto errors = validator.validate(r);
            if (!errors.isEmpty()) {
                qWarning() << "invalid test resource" << r.key().toString()
                           << errors.first().toString();
                return false;
            }
        }
        StoreError error;
        QList<ApplyOutcome> outcomes;
        if (!ws->apply(resources, &outcomes, &error)) {
            qWarning() << "apply failed:" << error.message;
            return false;
        }
        return true;
    }

    Resource stored(const ResourceKey &key) const { return ws->get(key).value_or(Resource{}); }

    QTemporaryDir dir;
    QString path;
    KindRegistry kinds;
    FakeBackend backend;
    std::unique_ptr<Workspace> ws;
};

} // namespace converge::test
